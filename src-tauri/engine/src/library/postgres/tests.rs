use std::str::FromStr;
use std::time::Duration;

use postgres::{Client, Config, NoTls};

use super::address::{parse, password_file, split_pgpass, TlsMode};
use super::*;
use std::io::Write;

/// Write `text` to a file only its owner may read (a password file in tests and set-up).
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(text.as_bytes())
}

/// Both halves of a split lookup run at once on two connections and read the first one's
/// snapshot: rows committed after it began are seen by neither. Needs the test server.
#[test]
fn split_lookups_share_one_snapshot_on_two_connections() {
    let Some(admin) =
        tongwen_testdata::test_postgres_for("split_lookups_share_one_snapshot_on_two_connections")
    else {
        return;
    };
    let connect = || Client::connect(&admin, NoTls).expect("test server");
    let (mut c, mut helper, mut other) = (connect(), connect(), connect());
    let table = format!("split_{}", std::process::id());
    c.batch_execute(&format!(
        "CREATE TABLE {table} (id bigint); INSERT INTO {table} SELECT generate_series(1, 100);"
    ))
    .unwrap();
    c.batch_execute(&format!(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT count(*) FROM {table};"
    ))
    .unwrap();
    other
        .batch_execute(&format!(
            "INSERT INTO {table} SELECT generate_series(101, 200)"
        ))
        .unwrap();
    let ids: Vec<i64> = (1..=200).collect();
    let look = |c: &mut Client, ids: &[i64]| {
        let pid: i32 = c.query_one("SELECT pg_backend_pid()", &[])?.get(0);
        let seen = c
            .query(
                &format!("SELECT id FROM {table} WHERE id = ANY($1)"),
                &[&ids],
            )?
            .len();
        Ok((pid, seen))
    };
    for _ in 0..2 {
        let parts = split(&mut c, Some(&mut helper), &ids, look).unwrap();
        assert_eq!(parts.len(), 2);
        assert_ne!(parts[0].0, parts[1].0, "two connections");
        assert_eq!((parts[0].1, parts[1].1), (100, 0), "one snapshot");
    }
    // Few items, or no helper: one connection.
    assert_eq!(
        split(&mut c, Some(&mut helper), &ids[..10], look)
            .unwrap()
            .len(),
        1
    );
    assert_eq!(split(&mut c, None, &ids, look).unwrap()[0].1, 100);
    // A helper that cannot take the snapshot over (here: connected to another database) leaves
    // the whole lookup to the first connection.
    let elsewhere = format!("{}/postgres", admin.rsplit_once('/').expect("address").0);
    let mut stranger = Client::connect(&elsewhere, NoTls).expect("test server");
    let parts = split(&mut c, Some(&mut stranger), &ids, look).unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(parts[0].1, 100);
    assert_eq!(
        split(&mut c, Some(&mut helper), &ids, look).unwrap().len(),
        2
    );
    c.batch_execute("COMMIT").unwrap();
    c.batch_execute(&format!("DROP TABLE {table}")).unwrap();
}

#[test]
fn the_password_is_never_shown() {
    assert_eq!(
        redact("postgres://alice:s3cret@db.school:5432/tongwen?sslmode=require"),
        "postgres://alice@db.school:5432/tongwen?sslmode=require"
    );
    assert_eq!(
        redact("postgres://db.school/tongwen"),
        "postgres://db.school/tongwen"
    );
    assert!(is_address("postgresql://x/y") && !is_address("/home/a/library.sqlite"));
    // A password given as a parameter, in any case and escaped, is left out too.
    assert_eq!(
        redact("postgres://alice@db.school/tongwen?password=s3cret&sslmode=require"),
        "postgres://alice@db.school/tongwen?sslmode=require"
    );
    assert_eq!(
        redact("postgres://alice@db.school/tongwen?sslmode=require&%50assword=s3cret"),
        "postgres://alice@db.school/tongwen?sslmode=require"
    );
    assert_eq!(
        redact("postgres://alice@db.school/tongwen?PASSWORD=s3cret"),
        "postgres://alice@db.school/tongwen"
    );
}

#[test]
fn password_file_lines_match_with_wildcards_and_escapes() {
    assert_eq!(
        split_pgpass(r"db\:1:*:tongwen:alice:pa\:ss"),
        ["db:1", "*", "tongwen", "alice", "pa:ss"]
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pgpass");
    write_private(
        &file,
        "# comment\nother:*:*:*:wrong\n127.0.0.1:*:tongwen:alice:right\n",
    )
    .unwrap();
    std::env::set_var("PGPASSFILE", &file);
    let config = Config::from_str("postgres://alice@127.0.0.1:5433/tongwen").unwrap();
    assert_eq!(password_file(&config, "alice").as_deref(), Some("right"));
    assert_eq!(password_file(&config, "bob"), None);
    std::env::remove_var("PGPASSFILE");
}

#[test]
fn addresses_keep_libpq_options_and_reject_unknown_tls_modes() {
    let t = parse("postgres://alice:pw@127.0.0.1:5999/lib?sslmode=verify-full&connect_timeout=3")
        .unwrap();
    assert_eq!(t.tls, TlsMode::VerifyFull);
    assert_eq!(
        t.config.get_connect_timeout(),
        Some(&Duration::from_secs(3))
    );
    assert_eq!(t.user, "alice");
    assert_eq!(
        t.location,
        "postgres://alice@127.0.0.1:5999/lib?sslmode=verify-full&connect_timeout=3"
    );
    let t = parse("postgres://alice@127.0.0.1/lib").unwrap();
    assert_eq!(t.tls, TlsMode::Prefer);
    assert_eq!(
        t.config.get_connect_timeout(),
        Some(&Duration::from_secs(CONNECT_TIMEOUT_SECS))
    );
    assert!(matches!(
        parse("postgres://a@h/l?sslmode=sometimes"),
        Err(Error::InvalidSetting { .. })
    ));
    // The timeout: the server's statement timeout, and the idle-in-transaction limit twice it.
    let t = parse("postgres://a@h/l?timeout=30").unwrap();
    assert_eq!(t.timeout, Duration::from_secs(30));
    let options = t.config.get_options().unwrap_or_default();
    assert!(
        options.contains("statement_timeout=30s")
            && options.contains("idle_in_transaction_session_timeout=60s"),
        "{options}"
    );
    assert_eq!(
        parse("postgres://a@h/l").unwrap().timeout,
        Duration::from_secs(STATEMENT_TIMEOUT_SECS)
    );
    for bad in [
        "timeout=0",
        "timeout=-1",
        "timeout=86401",
        "connect_timeout=100000000000",
    ] {
        assert!(
            matches!(
                parse(&format!("postgres://a@h/l?{bad}")),
                Err(Error::InvalidSetting { .. })
            ),
            "{bad}"
        );
    }
}
