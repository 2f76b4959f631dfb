//! Which files to read: files and folders as the user named them, expanded into the files Tongwen reads.
//! Used alike by adding to the library and by checking.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{is_supported_path, ExtractError, FileError};

/// Expand files and folders (recursively, keeping files with a supported extension, sorted by path,
/// skipping hidden entries) into the list of files to read. Paths that do not exist, folders that cannot
/// be listed, and pipes, devices or sockets with a supported name are returned as errors. A folder reached again through a symbolic link is not walked
/// twice, so a link loop (`ln -s . a`) ends.
pub fn collect_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for input in inputs {
        match std::fs::metadata(input) {
            Ok(m) if m.is_dir() => walk(input, &mut files, &mut errors, &mut seen),
            Ok(_) => files.push(input.clone()),
            Err(e) => errors.push(FileError::io(input, e)),
        }
    }
    (files, errors)
}

fn walk(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<FileError>,
    seen: &mut HashSet<PathBuf>,
) {
    // A folder is known by its canonical path: the same folder reached through a link is skipped.
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !seen.insert(canonical) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(FileError::io(dir, e));
            return;
        }
    };
    // The directory listing gives each entry's type (no `stat` per file, which took about 6 ms of a
    // 2,000-file folder's listing); a link is followed to what it points at.
    let mut paths: Vec<(PathBuf, Option<std::fs::FileType>)> = entries
        .filter_map(|e| e.ok().map(|e| (e.path(), e.file_type().ok())))
        .collect();
    paths.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, file_type) in paths {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        let file_type = match file_type {
            Some(t) if !t.is_symlink() => t,
            _ => match std::fs::metadata(&path) {
                Ok(m) => m.file_type(),
                Err(_) => continue,
            },
        };
        if file_type.is_dir() {
            walk(&path, files, errors, seen);
        } else if is_supported_path(&path) {
            if file_type.is_file() {
                files.push(path);
            } else {
                // A FIFO or a device named `x.txt` would block or never end: said, not read.
                errors.push(FileError::extract(path, ExtractError::NotAFile));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_walked_in_order_and_link_loops_end() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        for name in [
            "b/c/3.docx",
            "a.txt",
            "b/2.pdf",
            "b/skip.png",
            ".hidden.txt",
        ] {
            std::fs::write(root.join(name), "x").unwrap();
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(".", root.join("loop")).unwrap();
            std::os::unix::fs::symlink("..", root.join("b/up")).unwrap();
        }
        let (files, errors) = collect_files(&[root.to_path_buf(), root.join("missing.txt")]);
        let names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["a.txt", "b/2.pdf", "b/c/3.docx"]);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].to_string().contains("missing.txt"),
            "{}",
            errors[0]
        );
    }
}
