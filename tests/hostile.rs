//! Tried the way a hostile tester would: a server that stops answering in the middle of a command, an
//! output that names what the command reads, a password in the address, libraries created by several
//! processes at once, another tool's empty database, a write-ahead log that cannot be read, and the
//! small things (control characters in paths, ids named twice, empty titles, empty folders).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::util::{closed_port, on_postgres, stderr, within, Sandbox, TestDatabase};

const ESSAY: &str = "维护者应当在上传新版本之前检查软件包的依赖关系，并确认所有构建依赖都已在主仓库中提供，否则自动构建网络将无法编译该软件包。";
const OTHER: &str = "The release team freezes the testing distribution several weeks before a stable release, and only fixes for release-critical bugs are accepted after that date.";

/// The test server, in the first pass (the second runs everything against it anyway). Under CI the
/// server must be there: `scripts/test` starts it.
fn server() -> Option<TestDatabase> {
    if on_postgres() {
        eprintln!("SKIPPED in the PostgreSQL pass: ran in the first");
        return None;
    }
    let db = TestDatabase::create();
    if db.is_none() {
        tongwen_testdata::missing(
            "a hostile-server test",
            "the test PostgreSQL server (TONGWEN_TEST_POSTGRES; scripts/test starts one)",
        );
    }
    db
}

/// A TCP proxy to `port` (the connection unencrypted, so that it can read the messages) that forwards until the server has sent its `freeze_after`-th
/// ReadyForQuery message, then forwards nothing more in either direction and keeps both connections
/// open: a server, or a network, that stops answering mid-command.
fn freezing_proxy(port: u16, freeze_after: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy_port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { return };
            let Ok(server) = TcpStream::connect(("127.0.0.1", port)) else {
                return;
            };
            let frozen = Arc::new(AtomicBool::new(false));
            let pipe = |mut from: TcpStream, mut to: TcpStream, watch_ready: bool| {
                let frozen = frozen.clone();
                std::thread::spawn(move || {
                    let mut buf = [0u8; 16384];
                    let mut seen = Vec::new();
                    let mut ready = 0;
                    loop {
                        if frozen.load(Ordering::SeqCst) {
                            // Keep both ends open and silent.
                            std::thread::sleep(Duration::from_secs(600));
                            return;
                        }
                        let n = match from.read(&mut buf) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        if frozen.load(Ordering::SeqCst) {
                            continue;
                        }
                        if to.write_all(&buf[..n]).is_err() {
                            return;
                        }
                        if watch_ready {
                            // ReadyForQuery: 'Z', length 5, status byte.
                            seen.extend_from_slice(&buf[..n]);
                            while let Some(at) = seen.windows(5).position(|w| w == b"Z\0\0\0\x05") {
                                ready += 1;
                                seen.drain(..at + 5);
                            }
                            let keep = seen.len().saturating_sub(4);
                            seen.drain(..keep);
                            if ready >= freeze_after {
                                frozen.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                });
            };
            let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            pipe(client, server, false);
            pipe(s2, c2, true);
        }
    });
    proxy_port
}

/// `tongwen --library LOCATION library add FILE`, within a minute.
fn add_to(location: &str, file: &std::path::Path) -> Output {
    within(
        60,
        &[
            "--library",
            location,
            "library",
            "add",
            file.to_str().unwrap(),
        ],
    )
}

/// The database's address through `proxy_port`, with `query`.
fn through(db: &TestDatabase, proxy_port: u16, query: &str) -> String {
    let (_, rest) = db.url.rsplit_once(':').expect("port in the address");
    let name = rest.split_once('/').expect("database").1;
    format!("postgres://tongwen@127.0.0.1:{proxy_port}/{name}{query}")
}

fn server_port(db: &TestDatabase) -> u16 {
    let (_, rest) = db.url.rsplit_once(':').unwrap();
    rest.split_once('/').unwrap().0.parse().unwrap()
}

#[test]
fn a_server_that_stops_answering_mid_command_is_given_up_and_nothing_is_half_written() {
    let Some(db) = server() else { return };
    let s = Sandbox::new();
    let essay = s.write("essay.txt", ESSAY);
    let other = s.write("other.txt", OTHER);
    let direct = db.url.clone();
    let added = add_to(&direct, &essay);
    assert!(added.status.success(), "{}", stderr(&added));

    // A check whose first statement after logging in is never answered.
    let proxy = freezing_proxy(server_port(&db), 1);
    let address = through(&db, proxy, "?timeout=2&sslmode=disable");
    let started = Instant::now();
    let out = within(
        60,
        &["--library", &address, "check", essay.to_str().unwrap()],
    );
    let waited = started.elapsed();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no answer within 7 s"),
        "{}",
        stderr(&out)
    );
    assert!(waited < Duration::from_secs(30), "{waited:?}");

    // An add that stops at some depth inside its transaction: given up, and the server rolls the
    // transaction back (its statement or idle-in-transaction timeout), so the same document is then
    // added whole.
    let mut given_up = 0;
    for freeze_after in [5, 8, 12, 16, 24] {
        let proxy = freezing_proxy(server_port(&db), freeze_after);
        let address = through(&db, proxy, "?timeout=2&sslmode=disable");
        let out = add_to(&address, &other);
        if out.status.success() {
            // Finished (or found it already added) before the freeze point.
            continue;
        }
        assert!(
            stderr(&out).contains("no answer within 7 s"),
            "after {freeze_after} answers: {}",
            stderr(&out)
        );
        given_up += 1;
    }
    assert!(given_up >= 2, "only {given_up} adds were stopped mid-way");
    let again = add_to(&direct, &other);
    assert!(again.status.success(), "{}", stderr(&again));
    let count = |sql: &str| -> i64 { db.client().query_one(sql, &[]).unwrap().get(0) };
    assert_eq!(count("SELECT count(*) FROM documents"), 2);
    assert!(
        count("SELECT count(*) FROM paragraphs p JOIN documents d ON d.id = p.document_id") >= 2
    );
    let orphans = count(
        "SELECT count(*) FROM paragraphs WHERE document_id NOT IN (SELECT id FROM documents)",
    );
    assert_eq!(orphans, 0);
}

#[test]
fn a_password_in_the_address_is_never_printed_and_timeouts_are_bounded() {
    let Some(db) = server() else { return };
    let s = Sandbox::new();
    let essay = s.write("essay.txt", ESSAY);
    let secret = "s3cret-param";
    let address = format!("{}?password={secret}", db.url);
    let out = within(
        60,
        &[
            "--library",
            &address,
            "library",
            "add",
            essay.to_str().unwrap(),
        ],
    );
    let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(out.status.success(), "{printed}");
    assert!(!printed.contains(secret), "{printed}");
    assert!(printed.contains("127.0.0.1"), "{printed}");
    // Refused connections and refused logins leave it out too.
    let closed = closed_port();
    let out = within(
        30,
        &[
            "--library",
            &format!("postgres://someone@127.0.0.1:{closed}/x?password={secret}"),
            "library",
            "list",
        ],
    );
    assert!(!out.status.success());
    assert!(!stderr(&out).contains(secret), "{}", stderr(&out));
    let wrong = db.address_as(
        "nobody_here",
        &format!("?password={secret}&sslmode=disable"),
    );
    let out = within(30, &["--library", &wrong, "library", "list"]);
    assert!(!out.status.success());
    assert!(!stderr(&out).contains(secret), "{}", stderr(&out));
    // A database that does not exist is said as such, not as an unreachable server.
    let missing = db.address_as("tongwen", "-missing");
    let out = within(30, &["--library", &missing, "library", "list"]);
    assert!(
        stderr(&out).contains("does not exist") && stderr(&out).contains("createdb"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("cannot reach"), "{}", stderr(&out));
    // Timeouts beyond a day are refused at once instead of waiting for ever.
    for bad in ["connect_timeout=100000000000", "timeout=0", "timeout=abc"] {
        let out = within(
            30,
            &["--library", &format!("{}?{bad}", db.url), "library", "list"],
        );
        assert!(
            !out.status.success() && stderr(&out).contains("whole seconds"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_reader_running_init_is_told_what_it_may_do_not_refused_for_writing() {
    let Some(db) = server() else { return };
    let init = within(60, &["--library", &db.url, "library", "init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    let mut c = db.client();
    c.batch_execute(
        "DROP ROLE IF EXISTS hostile_reader; CREATE ROLE hostile_reader LOGIN PASSWORD 'r-pass';
         GRANT tongwen_reader TO hostile_reader;",
    )
    .unwrap();
    let reader = db.address_as("hostile_reader", "");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tongwen"));
    let out = cmd
        .args(["--library", &reader, "library", "init"])
        .env("PGPASSWORD", "r-pass")
        .env_remove("TONGWEN_LIBRARY")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(printed.contains("0 documents"), "{printed}");
    assert!(!stderr(&out).contains("add to or remove from"));
    let _ = c.batch_execute("DROP OWNED BY hostile_reader; DROP ROLE hostile_reader;");
}

#[test]
fn an_output_never_overwrites_what_the_command_reads() {
    let s = Sandbox::new();
    let essay = s.write("essay.txt", ESSAY);
    let folder = s.path("class");
    s.write("class/a.txt", ESSAY);
    s.ok(&["library", "add", essay.to_str().unwrap()]);

    // The submission being checked, a document inside a checked folder.
    for (target, input) in [
        (essay.clone(), essay.clone()),
        (folder.join("a.txt"), folder.clone()),
    ] {
        let before = std::fs::read(&target).unwrap();
        let out = s.tongwen(&[
            "check",
            input.to_str().unwrap(),
            "-o",
            target.to_str().unwrap(),
        ]);
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains("is read by this command")
                || stderr(&out).contains("which this command reads"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&target).unwrap(), before);
    }
    // A class's templates.
    let template = s.write("prompt.txt", OTHER);
    let out = s.tongwen(&[
        "compare",
        folder.to_str().unwrap(),
        essay.to_str().unwrap(),
        "--template",
        template.to_str().unwrap(),
        "-o",
        template.to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&template).unwrap(), OTHER);

    // The library itself and the files beside it.
    if s.database.is_none() {
        let lib = s.library_file();
        let index = s.path("library.sqlite.index");
        for target in [lib.clone(), index] {
            let out = s.tongwen(&[
                "check",
                essay.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ]);
            assert!(!out.status.success(), "{}", stderr(&out));
            assert!(
                stderr(&out).contains("is read by this command"),
                "{}",
                stderr(&out)
            );
        }
        for args in [
            vec!["library", "duplicates", "-o", lib.to_str().unwrap()],
            vec![
                "compare",
                essay.to_str().unwrap(),
                "--with-library",
                "-o",
                lib.to_str().unwrap(),
            ],
        ] {
            let out = s.tongwen(&args);
            assert!(!out.status.success(), "{args:?}: {}", stderr(&out));
        }
        let listed = s.ok(&["library", "list"]);
        assert!(listed.contains("essay"), "the library is intact: {listed}");
    }

    // Not a regular file: a device is refused and stays a device; standard output is standard output.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let out = s.tongwen(&["check", essay.to_str().unwrap(), "-o", "/dev/null"]);
        assert!(
            !out.status.success() && stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        let out = s.tongwen(&["check", essay.to_str().unwrap(), "-o", "/dev/stdout"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("essay.txt"),
            "the report went to standard output: {:?}",
            out
        );
    }

    // A new report is made as any new file of the user's: the umask decides, not 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let report = s.path("report.html");
        let out = Command::new("sh")
            .arg("-c")
            .arg("umask 022; exec \"$0\" --library \"$1\" check \"$2\" --format html -o \"$3\"")
            .arg(env!("CARGO_BIN_EXE_tongwen"))
            .arg(s.library())
            .arg(&essay)
            .arg(&report)
            .env_remove("TONGWEN_LIBRARY")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let mode = std::fs::metadata(&report).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
    }
}

#[test]
fn several_processes_creating_one_library_at_once_lose_nothing() {
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    for round in 0..8 {
        let lib = s.path(&format!("round{round}/library.sqlite"));
        let mut children = Vec::new();
        for adder in 0..3 {
            let folder = s.path(&format!("round{round}/in{adder}"));
            for i in 0..4 {
                s.write(
                    &format!("round{round}/in{adder}/{i}.txt"),
                    format!(
                        "{ESSAY} 第{round}轮，第{adder}位，第{i}篇。{OTHER} ({round}-{adder}-{i})"
                    ),
                );
            }
            children.push(
                Command::new(env!("CARGO_BIN_EXE_tongwen"))
                    .arg("--library")
                    .arg(&lib)
                    .args(["library", "add"])
                    .arg(&folder)
                    .env_remove("TONGWEN_LIBRARY")
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap(),
            );
        }
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "round {round}: {}", stderr(&out));
        }
        let listed = Command::new(env!("CARGO_BIN_EXE_tongwen"))
            .arg("--library")
            .arg(&lib)
            .args(["library", "list", "--json"])
            .output()
            .unwrap();
        let docs: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        assert_eq!(docs.as_array().unwrap().len(), 12, "round {round}");
    }
}

#[test]
fn another_tools_empty_database_is_made_a_whole_library_in_one_step() {
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    let essay = s.write("essay.txt", ESSAY);
    for version in [0, 3, 7, 99] {
        let lib = s.path(&format!("empty{version}.sqlite"));
        let c = rusqlite::Connection::open(&lib).unwrap();
        c.execute_batch(&format!("PRAGMA user_version = {version}"))
            .unwrap();
        drop(c);
        for _ in 0..2 {
            let out = Command::new(env!("CARGO_BIN_EXE_tongwen"))
                .arg("--library")
                .arg(&lib)
                .args(["library", "add"])
                .arg(&essay)
                .env_remove("TONGWEN_LIBRARY")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "user_version {version}: {}",
                stderr(&out)
            );
        }
        let listed = Command::new(env!("CARGO_BIN_EXE_tongwen"))
            .arg("--library")
            .arg(&lib)
            .args(["library", "list"])
            .output()
            .unwrap();
        assert!(String::from_utf8_lossy(&listed.stdout).contains("essay"));
    }
    // A database with another program's table stays refused and untouched.
    let foreign = s.path("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("PRAGMA user_version = 3; CREATE TABLE notes (x TEXT);")
        .unwrap();
    let before = std::fs::read(&foreign).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tongwen"))
        .arg("--library")
        .arg(&foreign)
        .args(["library", "add"])
        .arg(&essay)
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("not a Tongwen library"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
}

/// Run `tongwen ARGS` so that it cannot write `dir`: as an unprivileged user when the tests run as
/// root (who may write anywhere), from a copy of the binary it can run.
#[cfg(unix)]
fn tongwen_without_write_access(dir: &std::path::Path, args: &[&std::ffi::OsStr]) -> Output {
    use std::os::unix::fs::PermissionsExt;
    let root = Command::new("id").arg("-u").output().unwrap();
    let is_root = String::from_utf8_lossy(&root.stdout).trim() == "0";
    if !is_root {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tongwen"))
            .args(args)
            .env_remove("TONGWEN_LIBRARY")
            .output()
            .unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        return out;
    }
    let bin_dir = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("tongwen");
    std::fs::copy(env!("CARGO_BIN_EXE_tongwen"), &bin).unwrap();
    for d in [bin_dir.path(), dir] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The temporary folders' parents must be passable for the unprivileged user.
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&bin)
        .args(args)
        .env_remove("TONGWEN_LIBRARY")
        .env("HOME", dir)
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_write_ahead_log_that_cannot_be_read_is_refused_never_read_as_empty() {
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    let essay = s.write("essay.txt", ESSAY);
    let other = s.write("other.txt", OTHER);
    s.ok(&["library", "add", essay.to_str().unwrap()]);
    // A second document that stays in the write-ahead log: another connection is open while it is
    // added, so the log is not folded into the file when the command ends.
    let holder = rusqlite::Connection::open(s.library_file()).unwrap();
    holder
        .query_row("SELECT count(*) FROM documents", [], |r| r.get::<_, i64>(0))
        .unwrap();
    s.ok(&["library", "add", other.to_str().unwrap()]);
    let wal = s.path("library.sqlite-wal");
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the log holds the second add"
    );
    // The library and its log, without the shared-memory file, in a folder this user cannot write.
    let shelf = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    std::fs::copy(s.library_file(), shelf.path().join("library.sqlite")).unwrap();
    std::fs::copy(&wal, shelf.path().join("library.sqlite-wal")).unwrap();
    drop(holder);
    let lib = shelf.path().join("library.sqlite");
    let list = || {
        tongwen_without_write_access(
            shelf.path(),
            &[
                "--library".as_ref(),
                lib.as_os_str(),
                "library".as_ref(),
                "list".as_ref(),
            ],
        )
    };
    let out = list();
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr(&out).contains("write-ahead log") && stderr(&out).contains("nothing was read"),
        "{}",
        stderr(&out)
    );
    // Without a log, a library in a read-only folder is read as before.
    std::fs::remove_file(shelf.path().join("library.sqlite-wal")).unwrap();
    let out = list();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn small_things_a_tester_tries_say_what_is_wrong() {
    let s = Sandbox::new();
    let essay = s.write("essay.txt", ESSAY);
    s.ok(&["library", "add", essay.to_str().unwrap()]);
    // An id named twice removes the document once.
    let removed = s.ok(&["library", "remove", "1", "1"]);
    assert_eq!(removed.matches("removed #1").count(), 1, "{removed}");
    // An empty title is refused when adding, as when editing.
    let out = s.tongwen(&["library", "add", essay.to_str().unwrap(), "--title", " "]);
    assert!(
        !out.status.success() && stderr(&out).contains("title cannot be empty"),
        "{}",
        stderr(&out)
    );
    // A folder given to extract is called a folder.
    let out = s.tongwen(&["extract", s.dir.path().to_str().unwrap()]);
    assert!(stderr(&out).contains("a folder"), "{}", stderr(&out));
    // Checking an empty folder says there was nothing to read.
    let empty = s.path("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = s.tongwen(&["check", empty.to_str().unwrap()]);
    assert!(
        !out.status.success() && stderr(&out).contains("no document to read"),
        "{}",
        stderr(&out)
    );
    if s.database.is_none() {
        // A library that is not there, a folder, an empty name: said, not listed as empty.
        for (library, says) in [
            (
                s.path("missing.sqlite").display().to_string(),
                "no library at",
            ),
            (s.dir.path().display().to_string(), "is a folder"),
            (String::new(), "file name is empty"),
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_tongwen"))
                .args(["--library", &library, "library", "list"])
                .output()
                .unwrap();
            assert!(
                !out.status.success() && stderr(&out).contains(says),
                "{library:?}: {}",
                stderr(&out)
            );
        }
        // Control characters and bidi overrides in the library's path are printed as escapes.
        let odd = s.path("odd\u{1b}[31m\u{202e}lib.sqlite");
        let out = Command::new(env!("CARGO_BIN_EXE_tongwen"))
            .arg("--library")
            .arg(&odd)
            .args(["library", "add"])
            .arg(&essay)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            printed.contains("odd\\u{1b}[31m\\u{202e}lib.sqlite") && !printed.contains('\u{1b}'),
            "{printed}"
        );
    }
}
