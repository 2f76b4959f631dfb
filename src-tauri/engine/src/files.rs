//! Writing a file whole: reports, exported pages and settings are written to a temporary file created
//! exclusively in the target's folder (never a predictable name, never through a link planted there),
//! then renamed over the target; a failed write removes the temporary file and leaves the target as it was.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Write `bytes` to `path` atomically: readers see the old file or the new one, never half of one. A
/// new file gets the permissions any program of the user's gives a new file (read and write for all,
/// less the umask); a file replaced keeps its own.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes)).map_err(|e| Error::io(path, e))
}

/// As [`write_atomically`], but readable by its owner only, whatever the umask (settings, which may
/// hold a server's address).
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with_mode(path, Mode::Private, |w| w.write_all(bytes)).map_err(|e| Error::io(path, e))
}

/// Write `path` atomically through `fill`, which writes the whole content to the temporary file (buffered).
/// The same guarantees as [`write_atomically`]; the error is the I/O error, for callers that treat a
/// failure as a cache miss rather than as the user's error.
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_with_mode(path, Mode::Shared, fill)
}

/// Who may read a file written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// As the umask says (and as the file replaced was).
    Shared,
    /// Its owner only.
    Private,
}

fn write_with_mode(
    path: &Path,
    mode: Mode,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tongwen-").suffix(".tmp");
    #[cfg(unix)]
    if mode == Mode::Shared {
        use std::os::unix::fs::PermissionsExt;
        // Created with 0666: the system takes the umask off, as for any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(dir)?;
    if mode == Mode::Shared {
        if let Ok(old) = std::fs::metadata(path) {
            if old.is_file() {
                tmp.as_file().set_permissions(old.permissions())?;
            }
        }
    }
    let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp);
    fill(&mut w)?;
    // On failure the temporary file is removed when it is dropped.
    let tmp = w.into_inner().map_err(|e| e.into_error())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Where a report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A regular file, new or replaced (atomically).
    File(PathBuf),
    /// The path names this process's standard output (`/dev/stdout`, `/proc/self/fd/1`).
    Stdout,
}

/// Decide whether a report may be written to `path`: never over a file the same command reads
/// (`inputs`: its library and the library's files beside it, its submissions, and readable documents
/// inside submitted folders), never over anything but a regular file (a device, a pipe, a folder),
/// except standard output itself. Called before the work starts, so a refused output costs nothing.
pub fn output_target(path: &Path, inputs: &[PathBuf]) -> Result<Output> {
    let refuse = |reason: String| Error::InvalidSetting {
        name: "output",
        reason: format!("{}: {reason}; choose another file", path.display()),
    };
    if path.as_os_str().is_empty() {
        return Err(Error::InvalidSetting {
            name: "output",
            reason: "the output file name is empty".into(),
        });
    }
    let meta = std::fs::metadata(path);
    if let Ok(meta) = &meta {
        // Standard output itself, whatever it is (a terminal, a pipe, a file it was redirected to).
        if is_stdout(meta) {
            return Ok(Output::Stdout);
        }
        if !meta.is_file() {
            return Err(refuse(
                "is not a regular file (a folder, a device, a pipe or a socket): a report is written \
                 only to a file"
                    .into(),
            ));
        }
    }
    let target = comparable(path);
    for input in inputs {
        let input_path = comparable(input);
        if input_path == target {
            return Err(refuse(format!(
                "is read by this command ({}): writing the report there would destroy it",
                input.display()
            )));
        }
        // A readable document inside a submitted folder is an input too.
        if meta.is_ok() && input.is_dir() && target.starts_with(&input_path) {
            let readable = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ["txt", "docx", "pdf"].contains(&e.to_ascii_lowercase().as_str()));
            if readable {
                return Err(refuse(format!(
                    "is a document in {}, which this command reads",
                    input.display()
                )));
            }
        }
    }
    Ok(Output::File(path.to_path_buf()))
}

/// A path as it can be compared: resolved when it exists (links, `..`), else absolute with its folder
/// resolved.
fn comparable(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or(absolute),
        _ => absolute,
    }
}

/// Whether `meta` describes the file this process's standard output is.
#[cfg(unix)]
fn is_stdout(meta: &std::fs::Metadata) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .is_ok_and(|out| out.dev() == meta.dev() && out.ino() == meta.ino())
}

#[cfg(not(unix))]
fn is_stdout(_meta: &std::fs::Metadata) -> bool {
    false
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

    #[cfg(unix)]
    #[test]
    fn new_reports_follow_the_umask_and_replaced_files_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.html");
        write_atomically(&target, b"new").unwrap();
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        // The test runs under the usual umask 022 (or 002): others may read, nobody else writes.
        assert_eq!(mode & 0o044, 0o044, "{mode:o}: readable as any new file");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&target, b"again").unwrap();
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let settings = dir.path().join("settings.json");
        write_private(&settings, b"{}").unwrap();
        let mode = std::fs::metadata(&settings).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn outputs_never_name_an_input_or_a_device() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib.sqlite");
        std::fs::write(&lib, b"library").unwrap();
        let folder = dir.path().join("essays");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("a.txt"), "essay").unwrap();
        let inputs = vec![lib.clone(), folder.clone()];
        let err = output_target(&lib, &inputs).unwrap_err().to_string();
        assert!(
            err.contains("lib.sqlite") && err.contains("is read by this command"),
            "{err}"
        );
        // The same file by another spelling.
        let other = dir.path().join("essays/../lib.sqlite");
        assert!(output_target(&other, &inputs).is_err());
        assert!(output_target(&folder.join("a.txt"), &inputs).is_err());
        assert!(output_target(&folder, &inputs).is_err(), "a folder");
        // A new report inside the folder, or beside the library, is fine.
        let report = folder.join("report.html");
        assert_eq!(
            output_target(&report, &inputs).unwrap(),
            Output::File(report.clone())
        );
        #[cfg(unix)]
        {
            let err = output_target(Path::new("/dev/null"), &inputs).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
    }

    #[test]
    fn a_folder_that_does_not_exist_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing/report.html");
        let err = write_atomically(&target, b"x").unwrap_err();
        assert!(err.to_string().contains("report.html"), "{err}");
    }
}
