use super::*;
use crate::check::Method;

fn engine(dir: &Path) -> Engine {
    Engine::new(LibraryLocation::Sqlite(dir.join("lib.sqlite")))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `engine.add` of `files` with the default options, without progress or cancelling.
fn add(engine: &Engine, files: &[PathBuf]) -> Result<AddRun> {
    engine.add(
        files,
        &ReadOptions::default(),
        &mut |_| {},
        &AtomicBool::new(false),
    )
}

/// `engine.check` of `files` with the default options, without progress or cancelling.
fn check(engine: &Engine, files: &[PathBuf]) -> Result<CheckRun> {
    engine.check(
        files,
        &CheckOptions::default(),
        &mut |_| {},
        &AtomicBool::new(false),
    )
}

const SOURCE: &str = "软件包维护者应当定期检查错误报告，及时回复用户提出的问题，并在新版本发布之前完成全部测试工作。";

#[test]
fn listing_and_extracting_load_no_tokenizer_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path());
    assert!(engine.list().unwrap().is_empty());
    assert!(!dir.path().join("lib.sqlite").exists());
    let file = write(dir.path(), "a.txt", SOURCE);
    Engine::extract(&file, &ReadOptions::default()).unwrap();
    assert!(matches!(engine.remove(&[7]), Err(Error::NoSuchDocument(7))));
    assert!(!dir.path().join("lib.sqlite").exists());
    assert!(!engine.tokenizer_loaded());
    add(&engine, &[file]).unwrap();
    // A new engine (a new process) lists without the tokenizer.
    let reader = Engine::new(engine.location().clone());
    assert_eq!(reader.list().unwrap().len(), 1);
    assert_eq!(reader.status().unwrap().documents, 1);
    assert!(!reader.tokenizer_loaded());
}

#[test]
fn the_index_read_ahead_is_the_one_the_check_uses_until_the_library_changes() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path());
    // No library yet: nothing is read, nothing is created.
    engine.warm_index();
    assert!(!engine.index_ready());
    assert!(!dir.path().join("lib.sqlite").exists());
    let add_text = |name: &str, text: &str| add(&engine, &[write(dir.path(), name, text)]).unwrap();
    add_text("source.txt", SOURCE);
    // A new process (the app starting) reads the index ahead, without the segmenter's dictionary,
    // and saves it beside the library.
    let app = Engine::new(engine.location().clone());
    assert!(!app.index_ready());
    app.warm_index();
    assert!(app.index_ready());
    assert!(!app.tokenizer_loaded());
    assert!(dir.path().join("lib.sqlite.index").is_file());
    // Another process adds a document: the index held is stale, and the check reads the new one.
    add_text(
        "other.txt",
        "The release team freezes the testing distribution several weeks before a stable release.",
    );
    assert!(!app.index_ready());
    let copy = write(dir.path(), "copy.txt", SOURCE);
    let run = check(&app, &[copy]).unwrap();
    assert_eq!(run.report().documents[0].similarity_ratio, 1.0);
    assert!(app.index_ready());
}

#[test]
fn check_finds_the_copy_and_keeps_unreadable_files_with_their_error() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path());
    let lib = std::fs::create_dir(dir.path().join("lib")).map(|()| dir.path().join("lib"));
    let lib = lib.unwrap();
    write(&lib, "source.txt", SOURCE);
    let run = add(&engine, &[lib]).unwrap();
    assert_eq!(run.totals.documents, 1);
    let copy = write(dir.path(), "copy.txt", SOURCE);
    let empty = write(dir.path(), "empty.txt", "");
    let missing = dir.path().join("missing.txt");
    let mut seen = 0;
    let run = engine
        .check(
            &[copy, empty, missing],
            &CheckOptions::default(),
            &mut |_| seen += 1,
            &AtomicBool::new(false),
        )
        .unwrap();
    assert_eq!(
        (run.method, run.threshold, run.top),
        (Method::Verified, 0.3, 3)
    );
    assert_eq!(seen, 2, "one progress message per file read");
    let report = run.report();
    let files: Vec<(&str, bool)> = report
        .documents
        .iter()
        .map(|d| (d.file.rsplit('/').next().unwrap(), d.error.is_some()))
        .collect();
    assert_eq!(
        files,
        [
            ("missing.txt", true),
            ("copy.txt", false),
            ("empty.txt", true)
        ]
    );
    assert_eq!(report.documents[1].similarity_ratio, 1.0);
    assert_eq!(run.failures().count(), 2);
    // Re-filtered without checking again.
    assert!(run.report_at(1.5).is_err());
    assert_eq!(
        run.report_at(1.0).unwrap().documents[1].flagged_paragraphs,
        1
    );
}

#[test]
fn settings_are_validated_once_here() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path());
    let check = |options: CheckOptions| {
        engine
            .check(&[], &options, &mut |_| {}, &AtomicBool::new(false))
            .unwrap_err()
    };
    for bad in [
        CheckOptions {
            threshold: Some(1.2),
            ..CheckOptions::default()
        },
        CheckOptions {
            min_match_chars: 0,
            ..CheckOptions::default()
        },
        CheckOptions {
            read: ReadOptions {
                encoding: Some("klingon".into()),
            },
            ..CheckOptions::default()
        },
    ] {
        assert!(matches!(check(bad), Error::InvalidSetting { .. }));
    }
    assert_eq!(
        CheckOptions {
            method: Method::Simhash,
            ..CheckOptions::default()
        }
        .threshold(),
        0.8
    );
}

#[test]
fn a_library_with_stale_fingerprints_is_checked_only_after_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path());
    let file = write(dir.path(), "a.txt", SOURCE);
    add(&engine, std::slice::from_ref(&file)).unwrap();
    rusqlite::Connection::open(dir.path().join("lib.sqlite"))
        .unwrap()
        .execute(
            "UPDATE paragraphs SET algo = 1, simhash = 0, shingles = x''",
            [],
        )
        .unwrap();
    let status = engine.status().unwrap();
    assert_eq!((status.stale_paragraphs, status.needs_upgrade), (1, true));
    let err = check(&engine, std::slice::from_ref(&file)).unwrap_err();
    assert!(matches!(err, Error::NeedsUpgrade { stale: 1, .. }), "{err}");
    let mut steps = Vec::new();
    let status = engine
        .upgrade(
            &mut |p| steps.push((p.done, p.total)),
            &AtomicBool::new(false),
        )
        .unwrap();
    assert!(!status.needs_upgrade);
    assert_eq!(steps, [(1, 1)]);
    let run = check(&engine, &[file]).unwrap();
    assert_eq!(run.report().documents[0].similarity_ratio, 1.0);
}
