//! The throw-away PostgreSQL server the test command starts (`scripts/postgres.sh`, found through
//! `TONGWEN_TEST_POSTGRES`), on which the shared library (issue 18) will be tested: Debian's
//! PostgreSQL 15, reachable on a local port, run by an unprivileged user, whole transactions.

#[test]
fn the_test_server_is_postgresql_15_run_unprivileged_with_whole_transactions() {
    let Some(url) = tongwen_testdata::test_postgres_for(
        "the_test_server_is_postgresql_15_run_unprivileged_with_whole_transactions",
    ) else {
        return;
    };
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("the test server answers");
    let version: i32 = c
        .query_one("SELECT current_setting('server_version_num')::int", &[])
        .unwrap()
        .get(0);
    assert!((150_000..160_000).contains(&version), "version {version}");
    c.batch_execute("CREATE TABLE IF NOT EXISTS probe (id int PRIMARY KEY, note text NOT NULL)")
        .unwrap();
    let mut tx = c.transaction().unwrap();
    tx.execute("INSERT INTO probe VALUES (1, '同文')", &[])
        .unwrap();
    // The second row breaks the key: the transaction fails as a whole and nothing stays.
    assert!(tx
        .execute("INSERT INTO probe VALUES (1, 'again')", &[])
        .is_err());
    drop(tx);
    let n: i64 = c
        .query_one("SELECT count(*) FROM probe", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 0);
    // UTF-8 text round-trips.
    c.execute("INSERT INTO probe VALUES (2, '同文查重')", &[])
        .unwrap();
    let note: String = c
        .query_one("SELECT note FROM probe WHERE id = 2", &[])
        .unwrap()
        .get(0);
    assert_eq!(note, "同文查重");
    c.batch_execute("DROP TABLE probe").unwrap();
    // The server runs as someone other than root (PostgreSQL refuses root): its data folder is not
    // root's.
    let data: String = c
        .query_one("SELECT current_setting('data_directory')", &[])
        .unwrap()
        .get(0);
    let owner = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&data).unwrap());
    assert_ne!(owner, 0, "{data}");
}
