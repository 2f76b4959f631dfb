//! The shared library on PostgreSQL: what only a server has. Who may check and who may add (the two
//! roles `library init` makes), logins by libpq's conventions, TLS, bad addresses that fail at once
//! with the reason, a schema newer than this Tongwen, many desktops adding at once, and the same
//! results as the SQLite library on eval-dev. (Everything else runs against both backends: the whole
//! suite runs a second time with `TONGWEN_TEST_BACKEND=postgres`, see `util`.)
//!
//! These tests need the throw-away server `scripts/test` starts (`TONGWEN_TEST_POSTGRES`); without it
//! they say SKIPPED, and fail under CI.

use std::net::TcpListener;
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{stderr, Sandbox, TestDatabase};

fn database() -> Option<TestDatabase> {
    if crate::util::on_postgres() {
        eprintln!("SKIPPED in the PostgreSQL pass: ran in the first");
        return None;
    }
    let db = TestDatabase::create();
    if db.is_none() {
        tongwen_testdata::missing(
            "a shared-library test",
            "the test PostgreSQL server (TONGWEN_TEST_POSTGRES; scripts/test starts one)",
        );
    }
    db
}

/// `tongwen --library LOCATION ARGS` with extra environment, never a password of the caller's.
fn tongwen(location: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tongwen"));
    cmd.arg("--library").arg(location).args(args);
    for k in ["TONGWEN_LIBRARY", "PGPASSWORD", "PGPASSFILE", "PGUSER"] {
        cmd.env_remove(k);
    }
    // No password file of the account running the tests.
    cmd.env("PGPASSFILE", "/nonexistent/pgpass");
    cmd.envs(env.iter().copied());
    cmd.output().expect("run tongwen")
}

fn ok(location: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = tongwen(location, args, env);
    assert!(
        out.status.success(),
        "tongwen {args:?} failed: {}",
        stderr(&out)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn documents(db: &TestDatabase) -> i64 {
    db.client()
        .query_one("SELECT count(*) FROM documents", &[])
        .unwrap()
        .get(0)
}

const SOURCE: &str = "维护者应当在上传新版本之前检查软件包的依赖关系，并确认所有构建依赖都已在主仓库中提供，否则自动构建网络将无法编译该软件包。";
const OTHER: &str = "The release team freezes the testing distribution several weeks before a stable release, and only fixes for release-critical bugs are accepted after that date.";

#[test]
fn readers_may_check_writers_may_add_and_a_login_follows_libpq() {
    let Some(db) = database() else { return };
    let s = Sandbox::new();
    let src = s.write("source.txt", format!("{SOURCE}\n"));
    let sub = s.write("sub.txt", format!("{SOURCE}\n"));
    let other = s.write("other.txt", format!("{OTHER}\n"));
    let init = ok(&db.url, &["library", "init"], &[]);
    assert!(
        init.contains("tongwen_reader") && init.contains("tongwen_writer"),
        "{init}"
    );
    ok(&db.url, &["library", "add", src.to_str().unwrap()], &[]);
    // Login roles of this test (role names are the server's, not the database's).
    let (reader, writer, nobody) = (
        format!("r_{}", db.name),
        format!("w_{}", db.name),
        format!("n_{}", db.name),
    );
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {reader} LOGIN PASSWORD 'r-pass' IN ROLE tongwen_reader;
             CREATE ROLE {writer} LOGIN PASSWORD 'w-pass' IN ROLE tongwen_writer;
             CREATE ROLE {nobody} LOGIN PASSWORD 'n-pass';"
        ))
        .unwrap();

    // A reader (password from PGPASSWORD) lists and checks...
    let as_reader = db.address_as(&reader, "");
    let pw = [("PGPASSWORD", "r-pass")];
    let list = ok(&as_reader, &["library", "list", "--json"], &pw);
    assert_eq!(
        serde_json::from_str::<Value>(&list).unwrap()[0]["title"],
        "source"
    );
    let report: Value = serde_json::from_str(&ok(
        &as_reader,
        &["check", sub.to_str().unwrap(), "--format", "json"],
        &pw,
    ))
    .unwrap();
    assert_eq!(report["documents"][0]["paragraphs"][0]["flagged"], true);
    // A longer submission (its key lookups split over two connections that share one snapshot, which
    // a reader may export and import): every paragraph found in the document it came from.
    let faq = tongwen_testdata::repository_root()
        .join("tests/fixtures/translation/library/debian-faq-zh-cn-005.txt");
    ok(&db.url, &["library", "add", faq.to_str().unwrap()], &[]);
    let report: Value = serde_json::from_str(&ok(
        &as_reader,
        &["check", faq.to_str().unwrap(), "--format", "json"],
        &pw,
    ))
    .unwrap();
    let paragraphs = report["documents"][0]["paragraphs"].as_array().unwrap();
    assert!(paragraphs.len() >= 3, "{report}");
    for (i, p) in paragraphs.iter().enumerate() {
        let m = &p["matches"][0];
        assert_eq!(m["source_title"], "debian-faq-zh-cn-005", "{p}");
        assert_eq!(m["source_paragraph"], i, "{p}");
        assert_eq!(m["similarity"], 1.0, "{p}");
    }
    ok(&db.url, &["library", "remove", "2"], &[]);
    // ... and may not add or remove: the error names the right and the role that has it.
    for args in [
        vec!["library", "add", other.to_str().unwrap()],
        vec!["library", "remove", "1"],
    ] {
        let out = tongwen(&as_reader, &args, &pw);
        assert!(!out.status.success());
        let said = stderr(&out);
        assert!(
            said.contains(&format!("user {reader} may not add to or remove from"))
                && said.contains("tongwen_writer"),
            "{said}"
        );
    }
    assert_eq!(documents(&db), 1, "nothing was added or removed");

    // A user with neither role may not even check.
    let out = tongwen(
        &db.address_as(&nobody, ""),
        &["library", "list"],
        &[("PGPASSWORD", "n-pass")],
    );
    assert!(
        stderr(&out).contains("may not check against") && stderr(&out).contains("tongwen_reader"),
        "{}",
        stderr(&out)
    );

    // A wrong password is refused, saying so.
    let out = tongwen(&as_reader, &["library", "list"], &[("PGPASSWORD", "wrong")]);
    assert!(
        !out.status.success() && stderr(&out).contains("refused the login"),
        "{}",
        stderr(&out)
    );

    // A writer's password from the password file (libpq's format, only its owner may read it)...
    let pgpass = s.path("pgpass");
    let line = format!(
        "# the school's library\n127.0.0.1:*:{}:{writer}:w-pass\n",
        db.name
    );
    std::fs::write(&pgpass, &line).unwrap();
    let as_writer = db.address_as(&writer, "");
    let file = [("PGPASSFILE", pgpass.to_str().unwrap())];
    // ... is ignored while others may read it, as libpq does ...
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = tongwen(
        &as_writer,
        &["library", "add", other.to_str().unwrap()],
        &file,
    );
    assert!(
        stderr(&out).contains("refused the login"),
        "{}",
        stderr(&out)
    );
    // ... and used once it is private.
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o600)).unwrap();
    ok(
        &as_writer,
        &["library", "add", other.to_str().unwrap()],
        &file,
    );
    ok(&as_writer, &["library", "remove", "1"], &file);
    let list: Value =
        serde_json::from_str(&ok(&as_writer, &["library", "list", "--json"], &file)).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["title"], "other");
    // The password never appears in what Tongwen shows.
    let out = tongwen(
        &db.address_as(&format!("{reader}:r-pass"), ""),
        &["library", "add", other.to_str().unwrap()],
        &[],
    );
    assert!(
        !stderr(&out).contains("r-pass") && stderr(&out).contains(&format!("{reader}@")),
        "{}",
        stderr(&out)
    );
}

/// [`crate::util::within`] on the library at `location`.
fn within(seconds: u64, location: &str, args: &[&str]) -> Output {
    crate::util::within(seconds, &[&["--library", location], args].concat())
}

#[test]
fn bad_addresses_fail_at_once_with_the_reason_and_never_hang() {
    let Some(db) = database() else { return };
    // Nothing listens on the port.
    let port = crate::util::closed_port();
    let out = within(
        30,
        &format!("postgres://a@127.0.0.1:{port}/x"),
        &["library", "list"],
    );
    assert!(
        !out.status.success() && stderr(&out).contains("cannot reach the server"),
        "{}",
        stderr(&out)
    );
    // Something accepts the connection and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let out = within(
        30,
        &format!("postgres://a@127.0.0.1:{port}/x?connect_timeout=2"),
        &["library", "list"],
    );
    assert!(
        !out.status.success() && stderr(&out).contains("no answer within 2 s"),
        "{}",
        stderr(&out)
    );
    drop(silent);
    // A database that does not exist.
    let out = tongwen(
        &db.address_as("tongwen", "-missing"),
        &["library", "list"],
        &[],
    );
    assert!(
        !out.status.success() && stderr(&out).contains("does not exist"),
        "{}",
        stderr(&out)
    );
    // An unknown sslmode is a bad address.
    let out = tongwen(
        &db.address_as("tongwen", "?sslmode=maybe"),
        &["library", "list"],
        &[],
    );
    assert!(stderr(&out).contains("unknown sslmode"), "{}", stderr(&out));
}

#[test]
fn a_server_that_requires_tls_says_so_and_tls_modes_follow_libpq() {
    let Some(db) = database() else { return };
    ok(&db.url, &["library", "init"], &[]);
    // The test server lets `tongwen_tls` in only over TLS (scripts/postgres.sh).
    db.client()
        .batch_execute(
            "DO $$ BEGIN CREATE ROLE tongwen_tls LOGIN;
             EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
             GRANT tongwen_writer TO tongwen_tls;",
        )
        .unwrap();
    let out = tongwen(
        &db.address_as("tongwen_tls", "?sslmode=disable"),
        &["library", "list"],
        &[],
    );
    assert!(
        !out.status.success() && stderr(&out).contains("accepts only encrypted connections"),
        "{}",
        stderr(&out)
    );
    // Encrypted when asked, and by default when the server offers it (libpq's `prefer`).
    for query in ["?sslmode=require", ""] {
        let out = ok(
            &db.address_as("tongwen_tls", query),
            &["library", "list"],
            &[],
        );
        assert!(out.contains("is empty"), "{out}");
    }
    // The server's certificate is its own: verifying it needs the school's root certificate.
    let out = tongwen(
        &db.address_as("tongwen_tls", "?sslmode=verify-ca"),
        &["library", "list"],
        &[],
    );
    assert!(
        !out.status.success() && stderr(&out).contains("encrypted connection failed"),
        "{}",
        stderr(&out)
    );
    if let Ok(cert) = std::env::var("TONGWEN_TEST_POSTGRES_CERT") {
        let query = format!("?sslmode=verify-ca&sslrootcert={cert}");
        ok(
            &db.address_as("tongwen_tls", &query),
            &["library", "list"],
            &[],
        );
    }
}

#[test]
fn a_library_from_a_newer_tongwen_is_refused_and_left_alone() {
    let Some(db) = database() else { return };
    let s = Sandbox::new();
    let src = s.write("source.txt", format!("{SOURCE}\n"));
    ok(&db.url, &["library", "init"], &[]);
    db.client()
        .batch_execute("UPDATE meta SET schema_version = 99")
        .unwrap();
    for args in [
        vec!["library", "list"],
        vec!["library", "add", src.to_str().unwrap()],
    ] {
        let out = tongwen(&db.url, &args, &[]);
        assert!(
            !out.status.success() && stderr(&out).contains("schema version 99, newer than"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(documents(&db), 0);
    let version: i32 = db
        .client()
        .query_one("SELECT schema_version FROM meta", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 99);
}

/// The concept keys' counters (`concept_counts`, summed over slots) say exactly how many paragraphs
/// hold each concept key, and there are some.
fn assert_concept_counts_exact(db: &TestDatabase) {
    let row = db
        .client()
        .query_one(
            "WITH held AS (SELECT key, count(*) AS n FROM paragraph_keys WHERE key < 0 GROUP BY key),
                  counted AS (SELECT key, sum(paragraphs) AS n FROM concept_counts GROUP BY key
                              HAVING sum(paragraphs) <> 0)
             SELECT (SELECT count(*) FROM held),
                    (SELECT count(*) FROM held h FULL JOIN counted c USING (key)
                     WHERE h.n IS DISTINCT FROM c.n)",
            &[],
        )
        .unwrap();
    assert!(row.get::<_, i64>(0) > 0, "no concept keys stored");
    assert_eq!(row.get::<_, i64>(1), 0, "concept keys miscounted");
}

#[test]
fn concept_key_counters_stay_exact_through_removals_upgrades_and_migration() {
    let Some(db) = database() else { return };
    let s = Sandbox::new();
    write_documents(&s, "docs", 0..12);
    ok(
        &db.url,
        &["library", "add", s.path("docs").to_str().unwrap()],
        &[],
    );
    assert_concept_counts_exact(&db);
    ok(&db.url, &["library", "remove", "1", "2", "3"], &[]);
    assert_concept_counts_exact(&db);
    // Paragraphs of an older fingerprint definition, re-fingerprinted: old keys out, new keys in.
    db.client()
        .batch_execute("UPDATE paragraphs SET algo = 0 WHERE document_id > 8")
        .unwrap();
    ok(&db.url, &["library", "upgrade"], &[]);
    assert_concept_counts_exact(&db);
    // A library made at schema version 1 (no counters) is migrated by the next writer, counters
    // filled from the key table.
    db.client()
        .batch_execute(
            "DROP FUNCTION count_concept_keys() CASCADE; DROP TABLE concept_counts;
             UPDATE meta SET schema_version = 1",
        )
        .unwrap();
    let out = tongwen(&db.url, &["library", "list"], &[]);
    assert!(
        !out.status.success() && stderr(&out).contains("made by an older Tongwen"),
        "listing does not migrate: {}",
        stderr(&out)
    );
    // A reader's check may not migrate either, and says who may.
    let reader = format!("r_{}", db.name);
    db.client()
        .batch_execute(&format!(
            "CREATE ROLE {reader} LOGIN PASSWORD 'r-pass' IN ROLE tongwen_reader"
        ))
        .unwrap();
    let sub = s.write("sub.txt", format!("{SOURCE}\n"));
    let out = tongwen(
        &db.address_as(&reader, ""),
        &["check", sub.to_str().unwrap()],
        &[("PGPASSWORD", "r-pass")],
    );
    assert!(
        !out.status.success()
            && stderr(&out).contains(&format!("user {reader} may not create or upgrade"))
            && stderr(&out).contains("database owner"),
        "{}",
        stderr(&out)
    );
    write_documents(&s, "more", 20..22);
    ok(
        &db.url,
        &["library", "add", s.path("more").to_str().unwrap()],
        &[],
    );
    let version: i32 = db
        .client()
        .query_one("SELECT schema_version FROM meta", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 2);
    assert_concept_counts_exact(&db);
    assert_eq!(documents(&db), 12 - 3 + 2);
}

/// Documents of several paragraphs, Chinese and English, each its own content.
fn write_documents(s: &Sandbox, folder: &str, names: std::ops::Range<usize>) {
    for i in names {
        let text = format!(
            "第{i}号文档：{SOURCE}编号{i}。\n\nDocument {i} of the class. {OTHER} Number {i}.\n"
        );
        s.write(&format!("{folder}/doc-{i}.txt"), text);
    }
}

#[test]
fn desktops_adding_at_once_store_every_document_once_and_checks_see_whole_documents() {
    let Some(db) = database() else { return };
    let s = Sandbox::new();
    ok(&db.url, &["library", "init"], &[]);
    // Four desktops, 40 documents of their own each, and the same 10 documents all four add.
    for d in 0..4 {
        write_documents(&s, &format!("desk{d}"), d * 40..d * 40 + 40);
        write_documents(&s, &format!("desk{d}/shared"), 1000..1010);
    }
    let sub = s.write("sub.txt", format!("{SOURCE}\n"));
    let adders: Vec<std::process::Child> = (0..4)
        .map(|d| {
            Command::new(env!("CARGO_BIN_EXE_tongwen"))
                .args(["--library", &db.url, "library", "add"])
                .arg(s.path(&format!("desk{d}")))
                .env_remove("TONGWEN_LIBRARY")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    // Meanwhile, checks: each sees whole documents (every document's paragraphs all there).
    for _ in 0..5 {
        let out = tongwen(
            &db.url,
            &["check", sub.to_str().unwrap(), "--format", "json"],
            &[],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let whole: bool = db
            .client()
            .query_one(
                "SELECT coalesce(bool_and(d.paragraphs = (SELECT count(*) FROM paragraphs p
                                                          WHERE p.document_id = d.id)), true)
                 FROM documents d",
                &[],
            )
            .unwrap()
            .get(0);
        assert!(whole);
    }
    for child in adders {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(documents(&db), 4 * 40 + 10);
    let row = db
        .client()
        .query_one(
            "SELECT (SELECT documents FROM meta) = (SELECT count(*) FROM documents),
                    (SELECT paragraphs FROM meta) = (SELECT count(*) FROM paragraphs),
                    (SELECT count(*) FROM paragraphs p WHERE NOT EXISTS
                        (SELECT 1 FROM paragraph_keys k WHERE k.paragraph_id = p.id)),
                    (SELECT count(DISTINCT content_hash) FROM documents)",
            &[],
        )
        .unwrap();
    assert!(row.get::<_, bool>(0) && row.get::<_, bool>(1));
    assert_eq!(
        row.get::<_, i64>(2),
        0,
        "every paragraph is in the key table"
    );
    assert_eq!(row.get::<_, i64>(3), 170);
    assert_concept_counts_exact(&db);
    // Two desktops initialising one new library at once: one schema.
    let fresh = database().unwrap();
    let inits: Vec<std::process::Child> = (0..2)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_tongwen"))
                .args(["--library", &fresh.url, "library", "init"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in inits {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

/// A report without what differs by backend: ids (a server's sequences may skip) and times.
fn comparable(json: &str) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for k in [
                    "id",
                    "paragraph_id",
                    "document_id",
                    "source_document",
                    "added_at",
                    "library",
                    "checked_at",
                    "elapsed_ms",
                ] {
                    map.remove(k);
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(json).expect("json");
    strip(&mut v);
    v
}

#[test]
fn eval_dev_reads_the_same_on_both_backends() {
    let Some(dir) = tongwen_testdata::eval_dev_for("eval_dev_reads_the_same_on_both_backends")
    else {
        return;
    };
    let Some(db) = database() else { return };
    let Some(s) = Sandbox::sqlite_only() else {
        return;
    };
    let library = dir.join("library");
    let queries = dir.join("queries");
    let mut reports = Vec::new();
    for location in [s.library(), db.url.clone()] {
        ok(
            &location,
            &["library", "add", library.to_str().unwrap()],
            &[],
        );
        let list = ok(&location, &["library", "list", "--json"], &[]);
        let report = ok(
            &location,
            &["check", queries.to_str().unwrap(), "--format", "json"],
            &[],
        );
        reports.push((comparable(&list), comparable(&report)));
    }
    assert_eq!(reports[0].0, reports[1].0, "the same library");
    assert!(
        reports[0].1 == reports[1].1,
        "the SQLite and PostgreSQL reports differ"
    );
    let flagged = |v: &Value| {
        v["documents"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["paragraphs"].as_array().unwrap())
            .filter(|p| p["flagged"] == true)
            .count()
    };
    let n = flagged(&reports[1].1);
    eprintln!("eval-dev on PostgreSQL: the same report as SQLite, {n} paragraphs flagged");
    assert!(n > 100, "{n}");
}
