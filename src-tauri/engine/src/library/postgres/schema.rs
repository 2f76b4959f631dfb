//! The shared library's schema: its numbered migrations, the two group roles and their grants, and the
//! steps that bring a server's schema up to this build's.

use std::time::Duration;

use super::connection::server_error;
use super::PgLibrary;
use crate::error::{Error, Result, ServerProblem};

/// The group role that may check against the library (read).
pub const READER_ROLE: &str = "tongwen_reader";
/// The group role that may also add, edit and remove documents.
pub const WRITER_ROLE: &str = "tongwen_writer";

/// Migrations in order; `MIGRATIONS[i]` takes the schema from version `i` to `i + 1` (the step sets
/// `meta.schema_version` itself).
pub const MIGRATIONS: &[&str] = &[
    // 1: the library as SQLite's schema 5 has it, plus the shortlist's key table.
    "CREATE SCHEMA tongwen;
    CREATE TABLE tongwen.documents (
        id           bigserial PRIMARY KEY,
        title        text   NOT NULL,
        path         text   NOT NULL,
        format       text   NOT NULL,
        content_hash text   NOT NULL UNIQUE,
        bytes        bigint NOT NULL,
        paragraphs   bigint NOT NULL,
        chars        bigint NOT NULL,
        added_at     bigint NOT NULL,
        role         text   NOT NULL DEFAULT 'source',
        author       text,
        year         bigint
    );
    CREATE TABLE tongwen.document_tags (
        document_id bigint NOT NULL REFERENCES tongwen.documents(id) ON DELETE CASCADE,
        tag         text   NOT NULL,
        PRIMARY KEY (document_id, tag)
    );
    CREATE TABLE tongwen.paragraphs (
        id          bigserial PRIMARY KEY,
        document_id bigint   NOT NULL REFERENCES tongwen.documents(id) ON DELETE CASCADE,
        idx         integer  NOT NULL,
        kind        text     NOT NULL,
        level       smallint,
        text        text     NOT NULL,
        chars       bigint   NOT NULL,
        simhash     bigint   NOT NULL,
        shingles    bytea    NOT NULL,
        algo        integer  NOT NULL,
        UNIQUE (document_id, idx)
    );
    CREATE INDEX paragraphs_by_algo ON tongwen.paragraphs(algo);
    CREATE INDEX paragraphs_by_simhash ON tongwen.paragraphs(simhash);
    CREATE TABLE tongwen.paragraph_keys (
        key          integer NOT NULL,
        paragraph_id bigint  NOT NULL,
        PRIMARY KEY (key, paragraph_id)
    );
    CREATE TABLE tongwen.meta (
        id             integer PRIMARY KEY CHECK (id = 1),
        schema_version integer NOT NULL,
        library_id     bigint  NOT NULL,
        generation     bigint  NOT NULL,
        documents      bigint  NOT NULL,
        paragraphs     bigint  NOT NULL
    );
    INSERT INTO tongwen.meta VALUES (1, 1, (random() * 9.2e18)::bigint, 0, 0, 0);",
    // 2: how many paragraphs hold each concept key (the cross-language shortlist orders its
    // keys by them), kept exact by the key table's own triggers in the writer's transaction. Each writer
    // counts into one of 16 slots (its server process id modulo 16), so desktops adding at once seldom
    // wait on each other's counters; a key's count is the sum of its slots.
    "CREATE TABLE tongwen.concept_counts (
        key        integer  NOT NULL,
        slot       smallint NOT NULL,
        paragraphs bigint   NOT NULL,
        PRIMARY KEY (key, slot)
    );
    CREATE FUNCTION tongwen.count_concept_keys() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Counters in key order, so two writers sharing a slot lock them in the same order.
        INSERT INTO tongwen.concept_counts AS c (key, slot, paragraphs)
        SELECT key, (pg_backend_pid() % 16)::smallint,
               CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END
        FROM changed WHERE key < 0 GROUP BY key ORDER BY key
        ON CONFLICT (key, slot) DO UPDATE SET paragraphs = c.paragraphs + excluded.paragraphs;
        RETURN NULL;
    END $$;
    CREATE TRIGGER concept_keys_added AFTER INSERT ON tongwen.paragraph_keys
        REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION tongwen.count_concept_keys();
    CREATE TRIGGER concept_keys_removed AFTER DELETE ON tongwen.paragraph_keys
        REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION tongwen.count_concept_keys();
    INSERT INTO tongwen.concept_counts (key, slot, paragraphs)
    SELECT key, 0, count(*) FROM tongwen.paragraph_keys WHERE key < 0 GROUP BY key;",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The rights of the two roles, granted again after every migration (new tables get them too).
pub(super) const GRANTS: &str = "
    DO $$ BEGIN CREATE ROLE tongwen_reader NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
    DO $$ BEGIN CREATE ROLE tongwen_writer NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
    DO $$ BEGIN
        IF NOT pg_has_role('tongwen_writer', 'tongwen_reader', 'MEMBER') THEN
            GRANT tongwen_reader TO tongwen_writer;
        END IF;
    END $$;
    GRANT USAGE ON SCHEMA tongwen TO tongwen_reader;
    GRANT SELECT ON ALL TABLES IN SCHEMA tongwen TO tongwen_reader;
    GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA tongwen TO tongwen_writer;
    GRANT USAGE ON ALL SEQUENCES IN SCHEMA tongwen TO tongwen_writer;";

/// Key of the advisory lock migrations take ("TWLB").
pub(super) const MIGRATION_LOCK: i64 = 0x5457_4c42;
impl PgLibrary {
    pub(super) fn schema_version(&self) -> Result<i64> {
        let v: i32 = self
            .client()?
            .query_one("SELECT schema_version FROM tongwen.meta", &[])
            .map_err(|e| self.err(e))?
            .get(0);
        Ok(v as i64)
    }

    /// Apply every migration above the schema's version, each in its own transaction under the
    /// migration lock, and grant the roles their rights.
    pub(super) fn migrate(&mut self) -> Result<()> {
        // Roles are the whole server's: another library's `init` may be granting at the same moment,
        // and the server then aborts one of the two ("tuple concurrently updated"); it is tried again.
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.migrate_once() {
                Err(Error::Server {
                    problem: ServerProblem::Query(detail),
                    ..
                }) if attempt < 5 && detail.contains("concurrently") => {
                    std::thread::sleep(Duration::from_millis(50 * attempt));
                }
                done => return done,
            }
        }
    }

    pub(super) fn migrate_once(&mut self) -> Result<()> {
        let location = self.location.clone();
        let user = self.user.clone();
        let mut client = self.client()?;
        let err = |e: postgres::Error| server_error(&location, &e);
        loop {
            let mut tx = client.transaction().map_err(err)?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .map_err(err)?;
            let exists: bool = tx
                .query_one("SELECT to_regclass('tongwen.meta') IS NOT NULL", &[])
                .map_err(err)?
                .get(0);
            let found = if exists {
                let v: i32 = tx
                    .query_one("SELECT schema_version FROM tongwen.meta", &[])
                    .map_err(err)?
                    .get(0);
                v as i64
            } else {
                0
            };
            if found >= SCHEMA_VERSION {
                return tx.commit().map_err(err);
            }
            let step = MIGRATIONS[found as usize];
            tx.batch_execute(step).map_err(|e| {
                if e.code() == Some(&postgres::error::SqlState::INSUFFICIENT_PRIVILEGE) {
                    Error::Server {
                        location: location.clone(),
                        problem: ServerProblem::NoRight {
                            user: user.clone(),
                            right: "create or upgrade",
                            role: "database owner",
                        },
                    }
                } else {
                    err(e)
                }
            })?;
            tx.execute(
                "UPDATE tongwen.meta SET schema_version = $1",
                &[&(found as i32 + 1)],
            )
            .map_err(err)?;
            tx.batch_execute(GRANTS).map_err(err)?;
            tx.commit().map_err(err)?;
        }
    }
}
