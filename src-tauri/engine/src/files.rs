//! Writing a file whole: reports, exported pages and settings are written to a temporary file created
//! exclusively in the target's folder (never a predictable name, never through a link planted there),
//! then renamed over the target; a failed write removes the temporary file and leaves the target as it was.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Write `bytes` to `path` atomically: readers see the old file or the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes)).map_err(|e| Error::io(path, e))
}

/// Write `path` atomically through `fill`, which writes the whole content to the temporary file (buffered).
/// The same guarantees as [`write_atomically`]; the error is the I/O error, for callers that treat a
/// failure as a cache miss rather than as the user's error.
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".tongwen-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp);
    fill(&mut w)?;
    // On failure the temporary file is removed when it is dropped.
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.html");
        std::fs::write(&target, "old").unwrap();
        write_atomically(&target, "新的报告".as_bytes()).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "新的报告");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the report is left");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_the_old_temporary_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let target = dir.path().join("report.html");
        // The name earlier versions wrote through.
        std::os::unix::fs::symlink(&victim, dir.path().join("report.tongwen-tmp")).unwrap();
        write_atomically(&target, b"report").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "report");
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing/report.html");
        let err = write_atomically(&target, b"x").unwrap_err();
        assert!(err.to_string().contains("report.html"), "{err}");
    }
}
