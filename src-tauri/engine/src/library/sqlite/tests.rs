use super::*;
use crate::library::test_support::doc;

fn count(lib: &Library, table: &str) -> i64 {
    lib.conn
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_reader_holding_a_snapshot_sees_one_state_while_documents_are_removed() {
    let f = Fingerprinter::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let mut writer = Library::open(&path).unwrap();
    for name in ["a", "b"] {
        writer
            .add(&doc(
                name,
                &[&format!("{name}：一段用来检查快照的文字，足够长。")],
                &f,
            ))
            .unwrap();
    }
    let reader = Library::open_read(&path).unwrap();
    reader.hold_snapshot().unwrap();
    let (generation, flat) = reader.load_flat_prints().unwrap();
    let ids: Vec<i64> = flat.paragraph_ids.clone();
    assert_eq!(ids.len(), 2);
    let docs = writer.list().unwrap();
    writer.remove(&[docs[0].id]).unwrap();
    // The reader still sees both documents, under the same generation.
    assert_eq!(reader.generation().unwrap(), generation);
    assert_eq!(reader.source_paragraphs(&ids).unwrap().len(), 2);
    assert_eq!(reader.totals().unwrap().documents, 2);
    // A new reader sees the change.
    let fresh = Library::open_read(&path).unwrap();
    assert_eq!(fresh.totals().unwrap().documents, 1);
    assert_ne!(fresh.generation().unwrap(), generation);
}

#[test]
fn another_programs_database_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("customers.db");
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "PRAGMA user_version = 1; CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
             INSERT INTO customers (name) VALUES ('王明');",
        )
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    for err in [
        Library::open(&path).unwrap_err(),
        Library::open_read(&path).unwrap_err(),
    ] {
        assert!(matches!(err, Error::NotALibrary { .. }), "{err}");
        assert!(err.to_string().contains("customers.db"), "{err}");
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "not one byte written"
    );
    assert!(!dir.path().join("customers.db-wal").exists());
}

#[test]
fn a_library_is_marked_as_tongwens_and_an_unmarked_older_one_is_still_known() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    drop(Library::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    let id: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, schema::APPLICATION_ID);
    // Libraries made before the mark: known by their tables, marked when next opened for writing.
    conn.execute_batch("PRAGMA application_id = 0").unwrap();
    drop(conn);
    Library::open_read(&path).unwrap();
    drop(Library::open(&path).unwrap());
    let id: i32 = Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, schema::APPLICATION_ID);
}

#[test]
fn a_damaged_library_is_not_written_to() {
    let f = Fingerprinter::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    {
        let mut lib = Library::open(&path).unwrap();
        for i in 0..40 {
            let text = format!(
                "第 {i} 段：这是用来填满几页数据库的测试段落，内容足够长，能跨越多个页面。"
            );
            lib.add(&doc(&format!("d{i}"), &[&text, &text.repeat(20)], &f))
                .unwrap();
        }
        lib.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
            .unwrap();
    }
    // Garbage over the second page (a b-tree page of the library), as a bad disk block would leave.
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 16 * 1024;
    assert!(bytes.len() >= 3 * page, "the library spans pages");
    for (i, b) in bytes[page..2 * page].iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(151) ^ 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = Library::open(&path).unwrap_err();
    assert!(matches!(err, Error::Damaged { .. }), "{err}");
    assert!(err.to_string().contains("lib.sqlite"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing written");
}

#[test]
fn batches_are_checkpointed_behind_the_writer_and_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    let f = Fingerprinter::new();
    let mut lib = Library::open(&path).unwrap();
    // A checkpoint every 8 pages of log (SQLite's default, 1,000, would need 16 MB of it).
    lib.conn
        .execute_batch("PRAGMA wal_autocheckpoint = 8;")
        .unwrap();
    let text: Vec<String> = (0..300)
        .map(|i| {
            format!("第{i}段：软件包维护者应当定期检查错误报告，及时回复用户提出的问题。").repeat(8)
        })
        .collect();
    let texts: Vec<&str> = text.iter().map(String::as_str).collect();
    let docs: Vec<NewDocument> = (0..3)
        .map(|d| doc(&format!("thesis {d}"), &texts[d * 100..(d + 1) * 100], &f))
        .collect();
    let before = std::fs::metadata(&path).unwrap().len();
    // One document (as `add` writes it) is not an ingest's batch: the writer checkpoints itself.
    let one = doc("one", &["只有一段文字"], &f);
    lib.add(&one).unwrap();
    assert!(lib.checkpointer.is_none());
    let batch: Vec<&NewDocument> = docs.iter().collect();
    lib.add_batch(&batch).unwrap();
    assert!(lib.checkpointer.is_some());
    // The log is copied into the database by the checkpointer's thread while the library is open, at
    // the automatic checkpoint's threshold (which the writer itself no longer acts on).
    let waited = std::time::Instant::now();
    let size = || std::fs::metadata(&path).unwrap().len();
    while size() < before + 100_000 {
        assert!(
            waited.elapsed().as_secs() < 30,
            "not checkpointed: {before} -> {}",
            size()
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(count(&lib, "paragraphs"), 301);
    drop(lib);
    // Closed: everything is in the database file, and the log is gone.
    assert!(!dir.path().join("lib.sqlite-wal").exists());
    let lib = Library::open(&path).unwrap();
    assert_eq!(count(&lib, "documents"), 4);
    assert_eq!(count(&lib, "paragraphs"), 301);
    // A library in memory has no log to checkpoint.
    let mut memory = Library::in_memory().unwrap();
    memory.add_batch(&batch).unwrap();
    assert!(memory.checkpointer.is_none());
}

#[test]
fn an_add_that_fails_half_way_leaves_nothing() {
    let f = Fingerprinter::new();
    let mut lib = Library::in_memory().unwrap();
    // Make the third paragraph's insert fail, as a crash or a full disk would.
    lib.conn
        .execute_batch(
            "CREATE TRIGGER fail_third BEFORE INSERT ON paragraphs WHEN NEW.idx = 2
             BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
        )
        .unwrap();
    let d = doc(
        "thesis",
        &["第一段文字内容", "第二段文字内容", "第三段文字内容"],
        &f,
    );
    let err = lib.add(&d).unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert_eq!(count(&lib, "documents"), 0);
    assert_eq!(count(&lib, "paragraphs"), 0);
    // A document that does not trip the trigger is added whole.
    let d = doc("short", &["只有一段", "两段"], &f);
    assert!(matches!(lib.add(&d).unwrap(), AddOutcome::Added(_)));
    assert_eq!(count(&lib, "paragraphs"), 2);
}

#[test]
fn same_content_is_reported_as_present_and_remove_cascades() {
    let f = Fingerprinter::new();
    let mut lib = Library::in_memory().unwrap();
    let AddOutcome::Added(a) = lib.add(&doc("a", &["甲", "乙"], &f)).unwrap() else {
        panic!("first add adds");
    };
    assert_eq!((a.paragraphs, a.chars), (2, 2));
    let mut again = doc("renamed", &["甲", "乙"], &f);
    again.path = "/elsewhere/renamed.docx".into();
    assert_eq!(
        lib.add(&again).unwrap(),
        AddOutcome::AlreadyPresent(a.clone())
    );
    lib.add(&doc("b", &["丙"], &f)).unwrap();
    assert_eq!(
        lib.totals().unwrap(),
        Totals {
            documents: 2,
            paragraphs: 3,
            chars: 3
        }
    );
    assert!(matches!(
        lib.remove(&[a.id, 77]),
        Err(Error::NoSuchDocument(77))
    ));
    assert_eq!(
        lib.totals().unwrap().documents,
        2,
        "failed remove removes nothing"
    );
    lib.remove(&[a.id]).unwrap();
    assert_eq!(
        count(&lib, "paragraphs"),
        1,
        "paragraphs go with their document"
    );
    assert_eq!(lib.load_flat_prints().unwrap().1.simhash.len(), 1);
}

#[test]
fn stale_fingerprints_are_recomputed_by_the_explicit_step_only() {
    let f = Fingerprinter::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    {
        let mut lib = Library::open(&path).unwrap();
        lib.add(&doc("a", &["软件包维护者应当定期检查错误报告"], &f))
            .unwrap();
        lib.conn
            .execute(
                "UPDATE paragraphs SET algo = 0, simhash = 0, shingles = x''",
                [],
            )
            .unwrap();
        assert_eq!(lib.stale_paragraphs().unwrap(), 1);
    }
    // Opening, for reading or for writing, changes nothing.
    let before = std::fs::read(&path).unwrap();
    assert_eq!(
        Library::open_read(&path)
            .unwrap()
            .stale_paragraphs()
            .unwrap(),
        1
    );
    let mut lib = Library::open(&path).unwrap();
    assert_eq!(lib.stale_paragraphs().unwrap(), 1);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // A cancelled step rolls back.
    let cancelled = lib.refingerprint_stale(&f, &mut |_| {}, &AtomicBool::new(true));
    assert!(matches!(cancelled, Err(Error::Cancelled)), "{cancelled:?}");
    assert_eq!(lib.stale_paragraphs().unwrap(), 1);
    let mut seen = Vec::new();
    let done = lib
        .refingerprint_stale(
            &f,
            &mut |p| seen.push((p.done, p.total)),
            &AtomicBool::new(false),
        )
        .unwrap();
    assert_eq!((done, seen), (1, vec![(1, 1)]));
    assert_eq!(lib.stale_paragraphs().unwrap(), 0);
    let (_, prints) = lib.load_flat_prints().unwrap();
    let expected = f.paragraph("软件包维护者应当定期检查错误报告");
    assert_eq!(prints.simhash[0], expected.simhash);
    assert_eq!(prints.keys_of(0), expected.index_keys().as_slice());
}

#[test]
fn refingerprinting_goes_through_every_chunk_and_both_older_and_newer_versions() {
    let f = Fingerprinter::new();
    let texts = [
        "软件包维护者应当定期检查错误报告",
        "The maintainer checks the bug tracker every week.",
        "今天天气很好，我们去公园散步。",
        "维护者需要及时回复用户的问题",
        "Packages are uploaded to the archive by their maintainers.",
    ];
    let mut lib = Library::in_memory().unwrap();
    lib.add(&doc("a", &texts, &f)).unwrap();
    let before = lib.generation().unwrap();
    // Three paragraphs from an older definition, one from a newer one, one current.
    lib.conn
        .execute_batch(
            "UPDATE paragraphs SET algo = 1, simhash = 0, shingles = x'' WHERE idx IN (0, 2, 3);
             UPDATE paragraphs SET algo = 99, simhash = 0, shingles = x'' WHERE idx = 4;",
        )
        .unwrap();
    assert_eq!(lib.stale_paragraphs().unwrap(), 4);
    let mut seen = Vec::new();
    let done = lib
        .refingerprint_in_chunks(&f, 2, &mut |p| seen.push(p.done), &AtomicBool::new(false))
        .unwrap();
    assert_eq!((done, seen), (4, vec![2, 4]));
    assert_eq!(lib.stale_paragraphs().unwrap(), 0);
    assert_ne!(
        lib.generation().unwrap(),
        before,
        "the saved index goes stale"
    );
    let (_, prints) = lib.load_flat_prints().unwrap();
    for (i, text) in texts.iter().enumerate() {
        let expected = f.paragraph(text);
        assert_eq!(prints.simhash[i], expected.simhash, "{text}");
        assert_eq!(
            prints.keys_of(i),
            expected.index_keys().as_slice(),
            "{text}"
        );
        assert!(!expected.concepts.is_empty(), "{text}");
    }
    assert_eq!(
        lib.refingerprint_stale(&f, &mut |_| {}, &AtomicBool::new(false))
            .unwrap(),
        0
    );
}

#[test]
fn a_library_from_a_newer_tongwen_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    drop(Library::open(&path).unwrap());
    Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    for err in [
        Library::open(&path).unwrap_err(),
        Library::open_read(&path).unwrap_err(),
    ] {
        assert!(
            matches!(err, Error::SchemaTooNew { found: 99, .. }),
            "{err}"
        );
    }
}

#[test]
fn an_empty_database_of_any_version_becomes_a_whole_library_in_one_step() {
    let dir = tempfile::tempdir().unwrap();
    for version in [1, 3, 99] {
        let path = dir.path().join(format!("empty{version}.sqlite"));
        Connection::open(&path)
            .unwrap()
            .execute_batch(&format!("PRAGMA user_version = {version}"))
            .unwrap();
        let lib = Library::open(&path).unwrap();
        assert_eq!(schema::version(&lib.conn).unwrap(), schema::SCHEMA_VERSION);
        assert_eq!(lib.list().unwrap(), Vec::new());
        drop(lib);
        drop(Library::open_read(&path).unwrap());
    }
}

#[test]
fn reading_a_missing_or_older_library_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.sqlite");
    assert!(matches!(
        Library::open_read(&path),
        Err(Error::NoLibrary { .. })
    ));
    assert!(!path.exists(), "reading does not create a library");
    // A library of schema 1 (before the generation stamp) is refused for reading, left as it was,
    // and migrated when opened for changing.
    {
        let mut conn = Connection::open(&path).unwrap();
        let tx = conn.transaction().unwrap();
        schema::apply(&tx, schema::MIGRATIONS[0], 1).unwrap();
        tx.commit().unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    assert!(matches!(
        Library::open_read(&path),
        Err(Error::NeedsUpgrade { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let lib = Library::open(&path).unwrap();
    assert_eq!(schema::version(&lib.conn).unwrap(), schema::SCHEMA_VERSION);
    drop(lib);
    let lib = Library::open_read(&path).unwrap();
    assert_eq!(lib.totals().unwrap(), Totals::default());
}
