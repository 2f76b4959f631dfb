//! The library's schema and its migrations: numbered steps tracked in SQLite's `user_version`, each
//! applied in its own transaction together with the version bump, so a failed migration leaves the
//! database as it was. PRAGMAs are set on open (see `super::Library::open`), never here.

use rusqlite::{Connection, Transaction};

/// Migrations in order; `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: documents and their paragraphs with both fingerprints.
    "CREATE TABLE documents (
        id           INTEGER PRIMARY KEY,
        title        TEXT    NOT NULL,
        path         TEXT    NOT NULL,
        format       TEXT    NOT NULL,
        content_hash TEXT    NOT NULL UNIQUE,
        bytes        INTEGER NOT NULL,
        paragraphs   INTEGER NOT NULL,
        chars        INTEGER NOT NULL,
        added_at     INTEGER NOT NULL
    );
    CREATE TABLE paragraphs (
        id          INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        idx         INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        text        TEXT    NOT NULL,
        chars       INTEGER NOT NULL,
        simhash     INTEGER NOT NULL,
        shingles    BLOB    NOT NULL,
        algo        INTEGER NOT NULL,
        UNIQUE (document_id, idx)
    );
    CREATE INDEX paragraphs_by_algo ON paragraphs(algo);",
    // 2: the library's identity and change stamp, which name the saved index (`check::index_file`):
    // every transaction that changes paragraphs sets `generation` to a new random value.
    "CREATE TABLE meta (
        key   TEXT    PRIMARY KEY,
        value INTEGER NOT NULL
    );
    INSERT INTO meta (key, value) VALUES ('library_id', random()), ('generation', 0);",
    // 3: what a document is: its role (`source`, or `template`: text never counted as copying), author,
    // year and tags (a class, a year, "published").
    "ALTER TABLE documents ADD COLUMN role TEXT NOT NULL DEFAULT 'source';
    ALTER TABLE documents ADD COLUMN author TEXT;
    ALTER TABLE documents ADD COLUMN year INTEGER;
    CREATE TABLE document_tags (
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        tag         TEXT    NOT NULL,
        PRIMARY KEY (document_id, tag)
    ) WITHOUT ROWID;",
    // 4: common paragraphs (the same text in many documents) are found through their fingerprint.
    "CREATE INDEX paragraphs_by_simhash ON paragraphs(simhash);",
    // 5: paragraph kinds beyond heading and body (list, table, caption, footnote, reference; stored in
    // `kind`) and a heading's level. Paragraphs stored before keep the kind they were read with.
    "ALTER TABLE paragraphs ADD COLUMN level INTEGER;",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// SQLite's `application_id` of a Tongwen library ("TWLB"), set when a library is opened for writing.
/// Libraries made before it was set have 0 and are known by their schema.
pub const APPLICATION_ID: i32 = 0x5457_4c42;

/// What a database is, as far as Tongwen is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// No tables: a new file (SQLite creates an empty one on open).
    Empty,
    /// A Tongwen library.
    Tongwen,
    /// Another program's database.
    Foreign,
}

/// Tell a Tongwen library from another program's database: the application id, or, for libraries made
/// before it was set, a schema version with Tongwen's `documents` and `paragraphs` tables.
pub fn identify(conn: &Connection) -> rusqlite::Result<Identity> {
    let id: i32 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    if id == APPLICATION_ID {
        return Ok(Identity::Tongwen);
    }
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    // No tables: nothing to lose, whatever the header says of versions (another tool's empty file).
    if id == 0 && tables.is_empty() {
        return Ok(Identity::Empty);
    }
    let ours = id == 0
        && version(conn)? >= 1
        && ["documents", "paragraphs"]
            .iter()
            .all(|t| tables.iter().any(|n| n == t));
    Ok(if ours {
        Identity::Tongwen
    } else {
        Identity::Foreign
    })
}

/// Current `user_version` of a database.
pub fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Apply every migration above version `from` inside `tx` (which holds the write lock), so that the
/// whole schema change commits at once or not at all.
pub fn migrate_from(tx: &Transaction<'_>, from: i64) -> rusqlite::Result<()> {
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(from.max(0) as usize) {
        apply(tx, sql, i as i64 + 1)?;
    }
    Ok(())
}

pub(crate) fn apply(tx: &Transaction<'_>, sql: &str, to: i64) -> rusqlite::Result<()> {
    tx.execute_batch(sql)?;
    // PRAGMA takes no bound parameters; `to` is an integer from this file.
    tx.execute_batch(&format!("PRAGMA user_version = {to}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_applies_from_scratch() {
        let mut conn = Connection::open_in_memory().unwrap();
        let migrate = |conn: &mut Connection| {
            let tx = conn.transaction().unwrap();
            let from = version(&tx).unwrap();
            migrate_from(&tx, from).unwrap();
            tx.commit().unwrap();
        };
        migrate(&mut conn);
        assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
        // Applying again is a no-op.
        migrate(&mut conn);
        assert_eq!(version(&conn).unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn a_failed_migration_leaves_nothing_behind() {
        let mut conn = Connection::open_in_memory().unwrap();
        let tx = conn.transaction().unwrap();
        let bad = "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL;";
        assert!(apply(&tx, bad, 1).is_err());
        drop(tx); // rolls back
        let tables: i64 = conn
            .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
            .unwrap();
        assert_eq!(tables, 0);
        assert_eq!(version(&conn).unwrap(), 0);
    }
}
