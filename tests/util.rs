//! Helpers shared by the integration tests.
//!
//! Every test's library is made by [`Sandbox`]: a SQLite file in the test's temporary folder, or, when
//! the suite runs against the shared-library backend (`TONGWEN_TEST_BACKEND=postgres`, as
//! `scripts/test` does in its second pass), a new database on the test PostgreSQL server
//! (`TONGWEN_TEST_POSTGRES`), dropped when the test ends. So one set of tests runs against both.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A database of its own on the test PostgreSQL server.
pub struct TestDatabase {
    admin: String,
    pub name: String,
    pub url: String,
}

impl TestDatabase {
    /// A new empty database, when the test server is there.
    pub fn create() -> Option<TestDatabase> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let admin = std::env::var("TONGWEN_TEST_POSTGRES").ok()?;
        let name = format!(
            "tw_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut c = postgres::Client::connect(&admin, postgres::NoTls).expect("test server");
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        let base = admin.rsplit_once('/').expect("server address").0;
        Some(TestDatabase {
            url: format!("{base}/{name}"),
            admin,
            name,
        })
    }

    /// This database's address for another user (`postgres://USER@HOST:PORT/NAME`), with `query`
    /// appended.
    pub fn address_as(&self, user: &str, query: &str) -> String {
        let rest = self.url.split_once('@').expect("user in the address").1;
        format!("postgres://{user}@{rest}{query}")
    }

    /// A connection to this database as the server's superuser, in the library's schema.
    pub fn client(&self) -> postgres::Client {
        let mut c = postgres::Client::connect(&self.url, postgres::NoTls).expect("test database");
        c.batch_execute("SET search_path = tongwen").unwrap();
        c
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// Whether this run tests the shared-library backend (see the module notes).
pub fn on_postgres() -> bool {
    std::env::var("TONGWEN_TEST_BACKEND").is_ok_and(|b| b == "postgres")
}

/// A temporary directory with a library: a file inside, or a database of its own (see the module
/// notes).
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    pub database: Option<TestDatabase>,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let database = if on_postgres() {
            Some(TestDatabase::create().expect(
                "TONGWEN_TEST_BACKEND=postgres needs the test server (TONGWEN_TEST_POSTGRES)",
            ))
        } else {
            None
        };
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
            database,
        }
    }

    /// A sandbox for a test about the SQLite file itself (its bytes, its folder's rights); `None` in
    /// the shared-library pass, which skips it.
    pub fn sqlite_only() -> Option<Sandbox> {
        if on_postgres() {
            eprintln!("SKIPPED in the PostgreSQL pass: a test of the SQLite file");
            return None;
        }
        Some(Sandbox::new())
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The library's location, as `--library` takes it.
    pub fn library(&self) -> String {
        match &self.database {
            Some(db) => db.url.clone(),
            None => self.library_file().display().to_string(),
        }
    }

    /// The SQLite library's file (tests of the file itself; see [`Sandbox::sqlite_only`]).
    pub fn library_file(&self) -> PathBuf {
        self.path("library.sqlite")
    }

    /// Whether the library has been created (a file, or the schema in the database).
    pub fn library_exists(&self) -> bool {
        match &self.database {
            Some(db) => {
                let mut c = db.client();
                c.query_one("SELECT to_regclass('tongwen.meta') IS NOT NULL", &[])
                    .unwrap()
                    .get(0)
            }
            None => self.library_file().exists(),
        }
    }

    /// Run SQL on the library (the same statement on both backends: tables and columns are named
    /// alike).
    pub fn sql(&self, statement: &str) {
        match &self.database {
            Some(db) => db.client().batch_execute(statement).expect(statement),
            None => rusqlite::Connection::open(self.library_file())
                .and_then(|c| c.execute_batch(statement))
                .expect(statement),
        }
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
    /// `tongwen check FILE --format json`, parsed.
    pub fn check_json(&self, file: &std::path::Path) -> serde_json::Value {
        let file = file.to_str().expect("a UTF-8 path");
        serde_json::from_str(&self.ok(&["check", file, "--format", "json"]))
            .expect("check prints JSON")
    }

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

/// In a check's JSON report, every counted character is shown and attributed: for each paragraph, the
/// submission spans of its `matches` and `passages` (template text aside, which never counts) cover
/// exactly its `copied_chars` non-whitespace characters. (Run without `--exclude`, so every kind of
/// passage counts.)
pub fn assert_counted_is_shown(report: &serde_json::Value) {
    let mut paragraphs = 0;
    for d in report["documents"].as_array().expect("documents") {
        for p in d["paragraphs"].as_array().into_iter().flatten() {
            let text: Vec<char> = p["text"].as_str().expect("text").chars().collect();
            let mut covered = vec![false; text.len()];
            let listed = p["matches"].as_array().into_iter().flatten();
            for m in listed.chain(p["passages"].as_array().into_iter().flatten()) {
                for span in m["spans"].as_array().into_iter().flatten() {
                    if span["kind"] == "template" {
                        continue;
                    }
                    let start = span["submission"][0].as_u64().expect("start") as usize;
                    let end = span["submission"][1].as_u64().expect("end") as usize;
                    for c in covered.iter_mut().take(end.min(text.len())).skip(start) {
                        *c = true;
                    }
                }
            }
            let shown = text
                .iter()
                .zip(&covered)
                .filter(|(c, on)| **on && !c.is_whitespace())
                .count();
            assert_eq!(
                shown as u64,
                p["copied_chars"].as_u64().expect("copied_chars"),
                "{} paragraph {}: counted characters not all in listed spans",
                d["file"],
                p["index"]
            );
            paragraphs += 1;
        }
    }
    assert!(paragraphs > 0, "a report with paragraphs");
}

/// `tongwen ARGS` (the library given in ARGS, no password of the caller's), killed and failed after
/// `seconds`: a hang is a failure, not a stuck suite.
pub fn within(seconds: u64, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .args(args)
        .env_remove("TONGWEN_LIBRARY")
        .env_remove("PGPASSWORD")
        .env("PGPASSFILE", "/nonexistent/pgpass")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn tongwen");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("tongwen {args:?} still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

/// A port of 127.0.0.1 where nothing listens.
pub fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
