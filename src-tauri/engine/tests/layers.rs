//! The engine's imports run one way, along the data's way:
//!
//! ```text
//! extract → error → files | text → crosslang → fingerprint → library | seeds → ingest | check → class
//!   → report → engine → eval
//! ```
//!
//! `extract` is its own crate (`tongwen-extract`, re-exported as `crate::extract`) and depends on nothing
//! else of ours; the fuzz targets build only it. A module may name (through `crate::…`) only modules to its left; `ingest` (the write path) and `check`
//! (the read path) do not name each other. Inside every folder module, the files do not name each other
//! (`super::x`) in a loop. This test reads the sources, so anyone can check the rule with
//! `cargo test -p tongwen-engine --test layers`; a new top-level module or re-export must be placed here.
//! The code map these layers belong to: docs/ARCHITECTURE.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules in data order; equal ranks may not name each other.
const LAYERS: &[(&str, u32)] = &[
    ("extract", 0),
    ("error", 1),
    ("files", 2),
    ("text", 2),
    ("crosslang", 3),
    ("fingerprint", 4),
    ("library", 5),
    ("seeds", 5),
    ("ingest", 6),
    ("check", 6),
    ("class", 7),
    ("report", 8),
    ("engine", 9),
    ("eval", 10),
];

/// Names the crate root re-exports or defines, and the module each belongs to (`None`: the root itself,
/// which every module may use).
const ROOT_NAMES: &[(&str, Option<&str>)] = &[
    ("Error", Some("error")),
    ("Result", Some("error")),
    ("VERSION", None),
    ("Engine", Some("engine")),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Source without comments (line comments and doc comments), so prose that mentions a module does not
/// count as an import.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first path segments named after each occurrence of `prefix` (`crate::` or `super::`), including
/// every item of a brace group (`crate::{a, b::c}` names `a` and `b`).
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(is_ident) {
            continue; // `xcrate::` or `a::super::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Split the group at its top-level commas; each item's first identifier is what it names.
            let mut depth = 0;
            let mut items = vec![String::new()];
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(String::new()),
                    _ => {}
                }
                if let Some(item) = items.last_mut() {
                    item.push(c);
                }
            }
            for item in items {
                let name: String = item
                    .trim_start_matches(|c: char| c == ',' || c.is_whitespace())
                    .chars()
                    .take_while(|&c| is_ident(c))
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn top_module(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib").then_some(name)
}

#[test]
fn imports_follow_the_data() {
    let ranks: BTreeMap<&str, u32> = LAYERS.iter().copied().collect();
    let root: BTreeMap<&str, Option<&str>> = ROOT_NAMES.iter().copied().collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let Some(own) = top_module(file) else {
            continue;
        };
        let Some(&own_rank) = ranks.get(own.as_str()) else {
            wrong.push(format!(
                "{}: module `{own}` is not placed in LAYERS",
                file.display()
            ));
            continue;
        };
        let code = code_of(&std::fs::read_to_string(file).expect("read"));
        for name in named_after(&code, "crate::") {
            let target = match (ranks.get(name.as_str()), root.get(name.as_str())) {
                (Some(_), _) => Some(name.as_str()),
                (None, Some(module)) => *module,
                (None, None) => {
                    wrong.push(format!(
                        "{}: `crate::{name}` is not placed in LAYERS or ROOT_NAMES",
                        file.display()
                    ));
                    continue;
                }
            };
            let Some(target) = target else { continue };
            if target != own && ranks[target] >= own_rank {
                wrong.push(format!(
                    "{}: `{own}` names `crate::{name}` (`{target}`), which comes after it",
                    file.display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the data:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn files_of_a_folder_module_do_not_name_each_other_in_a_loop() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    rust_files(&readers().join("src"), &mut files);
    let mut folders: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for f in files {
        if let Some(dir) = f.parent() {
            folders
                .entry(dir.to_path_buf())
                .or_default()
                .push(f.clone());
        }
    }
    let mut loops = Vec::new();
    for (dir, files) in &folders {
        let stem = |f: &Path| f.file_stem().map(|s| s.to_string_lossy().into_owned());
        let siblings: BTreeSet<String> = files
            .iter()
            .filter_map(|f| stem(f))
            .filter(|s| s != "mod" && s != "lib")
            .collect();
        // Edges between sibling files (the folder's mod.rs declares them all and is left out).
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in files {
            let Some(from) = stem(f).filter(|s| siblings.contains(s)) else {
                continue;
            };
            let code = code_of(&std::fs::read_to_string(f).expect("read"));
            let named: BTreeSet<String> = named_after(&code, "super::")
                .into_iter()
                .filter(|n| siblings.contains(n) && *n != from)
                .collect();
            edges.insert(from, named);
        }
        // Depth-first search for a cycle.
        fn visit(
            node: &str,
            edges: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(i) = path.iter().position(|p| p == node) {
                let mut cycle = path[i..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            if done.contains(node) {
                return None;
            }
            path.push(node.to_string());
            for next in edges.get(node).into_iter().flatten() {
                if let Some(c) = visit(next, edges, path, done) {
                    return Some(c);
                }
            }
            path.pop();
            done.insert(node.to_string());
            None
        }
        let mut done = BTreeSet::new();
        for node in edges.keys() {
            if let Some(cycle) = visit(node, &edges, &mut Vec::new(), &mut done) {
                loops.push(format!("{}: {}", dir.display(), cycle.join(" → ")));
                break;
            }
        }
    }
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

/// The readers' crate, `src-tauri/extract`.
fn readers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extract")
}

#[test]
fn the_readers_depend_on_nothing_of_ours() {
    let manifest = std::fs::read_to_string(readers().join("Cargo.toml")).expect("read manifest");
    let mut section = "";
    let mut ours = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" && line.starts_with("tongwen") {
            ours.push(line.to_string());
        }
    }
    let mut files = Vec::new();
    rust_files(&readers().join("src"), &mut files);
    assert!(files.len() > 10, "the readers' sources were not found");
    for file in &files {
        let code = code_of(&std::fs::read_to_string(file).expect("read"));
        // Test modules may use the shared test data; product code names no crate of ours.
        let product = code.split("#[cfg(test)]").next().unwrap_or_default();
        if file.ends_with("tests.rs") {
            continue;
        }
        for crate_name in [
            "tongwen_engine",
            "tongwen_cli",
            "tongwen_desktop",
            "tongwen_bench",
        ] {
            if product.contains(crate_name) {
                ours.push(format!("{}: {crate_name}", file.display()));
            }
        }
    }
    assert!(
        ours.is_empty(),
        "the readers name other crates of ours:\n{}",
        ours.join("\n")
    );
}

#[test]
fn the_reader_of_imports_sees_groups_and_ignores_prose() {
    let code = code_of(
        "use crate::{check::Index, library::{A, B}, Error};\n// crate::report in prose\nlet x = crate::text::units(s);\nuse super::font::{number};",
    );
    let named: Vec<String> = named_after(&code, "crate::").into_iter().collect();
    assert_eq!(named, ["Error", "check", "library", "text"]);
    let named: Vec<String> = named_after(&code, "super::").into_iter().collect();
    assert_eq!(named, ["font"]);
}
