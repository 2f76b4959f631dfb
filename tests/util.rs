//! Helpers shared by the integration tests.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A temporary directory with a library inside.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn library(&self) -> PathBuf {
        self.path("library.sqlite")
    }

    /// Write a file (creating folders) and return its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::write(&p, bytes).expect("write");
        p
    }

    /// `tongwen --library <sandbox library> ARGS`.
    pub fn tongwen(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tongwen"));
        cmd.arg("--library").arg(self.library()).args(args);
        cmd.env_remove("TONGWEN_LIBRARY");
        cmd.output().expect("run tongwen")
    }

    /// Run and require success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.tongwen(args);
        assert!(
            out.status.success(),
            "tongwen {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The eval-dev benchmark, when present (found by `tongwen-testdata`, the one place that looks it up).
pub fn eval_dev() -> Option<PathBuf> {
    tongwen_testdata::eval_dev()
}

/// A .docx with these paragraphs (made with docx-rs, as Word would store them).
pub fn docx(paragraphs: &[&str]) -> Vec<u8> {
    use docx_rs::{Docx, Paragraph, Run};
    let mut doc = Docx::new();
    for p in paragraphs {
        doc = doc.add_paragraph(Paragraph::new().add_run(Run::new().add_text(*p)));
    }
    let mut buf = std::io::Cursor::new(Vec::new());
    doc.build().pack(&mut buf).expect("pack docx");
    buf.into_inner()
}
