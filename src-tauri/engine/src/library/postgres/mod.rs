//! A shared library on a PostgreSQL server (15 and later): what a school runs once for every desktop.
//!
//! - **Address.** `postgres://user@host:port/database?sslmode=…`, with libpq's conventions: a password
//!   from the address, `PGPASSWORD` or the password file (`PGPASSFILE`, else `~/.pgpass`, ignored
//!   unless only its owner may read it); `PGUSER`, `PGHOST`, `PGPORT`, `PGDATABASE` when the address
//!   leaves them out; `sslmode` `disable`, `allow`/`prefer` (the default: encrypted when the server
//!   offers it), `require`, `verify-ca`, `verify-full`, with `sslrootcert` for a school's own
//!   certificate authority (`require` with a root certificate verifies like `verify-ca`, as libpq does).
//! - **Never a hang.** Connecting gives up after [`CONNECT_TIMEOUT_SECS`] (`connect_timeout=` in the
//!   address overrides it); the server cancels a statement after [`STATEMENT_TIMEOUT_SECS`]
//!   (`timeout=` in the address), and this side gives up on a call that sees nothing move on its
//!   connection for [`ANSWER_MARGIN_SECS`] longer (`watch`: a server process that is stopped, or a
//!   proxy that stops forwarding, which TCP keep-alives never notice); a connection whose peer is
//!   gone is dropped by TCP keep-alives. A session left idle in a transaction (its desktop gone
//!   behind a proxy) is ended by the server after twice the timeout.
//! - **Schema.** Everything lives in the schema `tongwen` (so the database can hold other things):
//!   `documents`, `document_tags`, `paragraphs` (texts and fingerprints, as in the SQLite library),
//!   `paragraph_keys` (one row per stored key and paragraph, primary key `(key, paragraph_id)`: the
//!   shortlist's index, which a sharding extension distributes by `key` unchanged, see
//!   `docs/scale.md`), `concept_counts` (how many paragraphs hold each concept key, kept exact by
//!   triggers on the key table, in slots so that writers seldom share a counter) and `meta` (schema
//!   version, the library's identity and change stamp, counts).
//!   Migrations are numbered steps, each one transaction with its version bump, under an advisory lock
//!   so that two desktops upgrading at once do it once.
//! - **Rights.** The schema is created with two group roles: [`READER_ROLE`] may check, [`WRITER_ROLE`]
//!   may also add, edit and remove. A user without the right gets [`ServerProblem::NoRight`] before
//!   anything is read or written.
//! - **Writers at once.** A document is one row with a unique content hash, inserted with
//!   `ON CONFLICT DO NOTHING`: two desktops adding the same content store it once; each batch is one
//!   transaction (retried on a deadlock), so nobody sees half a document. A check reads one snapshot
//!   (`REPEATABLE READ`) however long it takes.
//! - **Key lookups run in the server** ([`Shortlist`]): a check sends its paragraphs' distinct keys
//!   and gets back only their postings (never the library's keys), counts the shared keys by the
//!   in-memory index's rules (common keys skipped, ties by paragraph id), then fetches only the
//!   candidates' texts.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use postgres::Client;

mod address;
mod connection;
mod schema;
mod shortlist;
mod store;
#[cfg(test)]
mod tests;
mod watch;

pub use address::{
    is_address, redact, ANSWER_MARGIN_SECS, CONNECT_TIMEOUT_SECS, STATEMENT_TIMEOUT_SECS,
};

use address::{parse, Target};
use connection::{connect, server_error, Connection};
pub use schema::{MIGRATIONS, READER_ROLE, SCHEMA_VERSION, WRITER_ROLE};
use watch::Watch;

use crate::error::{Error, Result, ServerProblem};
/// A library on a PostgreSQL server.
pub struct PgLibrary {
    client: Mutex<Client>,
    /// The first connection's watch.
    watch: Watch,
    location: String,
    user: String,
    /// A read transaction is held open (see [`Store::hold_snapshot`]).
    snapshot: AtomicBool,
    /// The second connection of key lookups split in two ([`split`]).
    helper: Mutex<Helper>,
    target: Target,
}

/// The second connection: opened at the first lookup that splits, and again after it broke.
enum Helper {
    NotYet,
    Open(Box<Connection>),
    /// The server refused it (too many connections, say): lookups run on one connection.
    Unavailable,
}

impl std::fmt::Debug for PgLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgLibrary")
            .field("location", &self.location)
            .finish()
    }
}

/// What the connected user may do.
struct Rights {
    schema: bool,
    read: bool,
    write: bool,
}

impl PgLibrary {
    fn connect(address: &str) -> Result<PgLibrary> {
        let target = parse(address)?;
        let connection = connect(&target)?;
        Ok(PgLibrary {
            client: Mutex::new(connection.client),
            watch: connection.watch,
            location: target.location.clone(),
            user: target.user.clone(),
            snapshot: AtomicBool::new(false),
            helper: Mutex::new(Helper::NotYet),
            target,
        })
    }

    /// Open an existing library for checking: no migration. No schema is [`Error::NoLibrary`], an older
    /// one [`Error::NeedsUpgrade`], a user who may not read [`ServerProblem::NoRight`].
    pub fn open_read(address: &str) -> Result<PgLibrary> {
        let lib = PgLibrary::connect(address)?;
        let rights = lib.rights()?;
        if !rights.schema {
            return Err(Error::NoLibrary {
                path: PathBuf::from(&lib.location),
            });
        }
        if !rights.read {
            return Err(lib.no_right("check against", READER_ROLE));
        }
        let found = lib.schema_version()?;
        lib.check_version(found)?;
        if found < SCHEMA_VERSION {
            return Err(Error::NeedsUpgrade {
                path: PathBuf::from(&lib.location),
                stale: 0,
            });
        }
        Ok(lib)
    }

    /// Open for changing: create the schema and the two roles if there are none (`library init`;
    /// the user needs the right to create them), migrate an older schema, and refuse a user who may
    /// not write.
    pub fn open(address: &str) -> Result<PgLibrary> {
        let lib = PgLibrary::init(address)?;
        if !lib.rights()?.write {
            return Err(lib.no_right("add to or remove from", WRITER_ROLE));
        }
        Ok(lib)
    }

    /// `library init`: create the schema and roles if there are none and migrate an older schema, as
    /// [`Self::open`] does, without asking for the right to write: a user who may only check, on a
    /// library that is up to date, is told what it holds. Creating or upgrading needs the database
    /// owner's rights, and a user without them is told so.
    pub fn init(address: &str) -> Result<PgLibrary> {
        let mut lib = PgLibrary::connect(address)?;
        let rights = lib.rights()?;
        let found = if rights.schema {
            if !rights.read {
                return Err(lib.no_right("check against", READER_ROLE));
            }
            lib.schema_version()?
        } else {
            0
        };
        lib.check_version(found)?;
        if found < SCHEMA_VERSION {
            lib.migrate()?;
        }
        Ok(lib)
    }

    fn check_version(&self, found: i64) -> Result<()> {
        if found > SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                path: PathBuf::from(&self.location),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(())
    }

    fn no_right(&self, right: &'static str, role: &'static str) -> Error {
        Error::Server {
            location: self.location.clone(),
            problem: ServerProblem::NoRight {
                user: self.user.clone(),
                right,
                role,
            },
        }
    }

    fn err(&self, e: postgres::Error) -> Error {
        server_error(&self.location, &e)
    }

    /// The first connection, watched until the returned guard is dropped.
    fn client(&self) -> Result<Watched<'_>> {
        let client = self
            .client
            .lock()
            .map_err(|_| Error::Internal("a database call panicked"))?;
        Ok(Watched {
            client,
            _busy: self.watch.begin(),
        })
    }

    fn rights(&self) -> Result<Rights> {
        let row = self
            .client()?
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'tongwen')",
                &[],
            )
            .map_err(|e| self.err(e))?;
        let schema: bool = row.get(0);
        let usage = schema
            && self
                .client()?
                .query_one("SELECT has_schema_privilege('tongwen', 'USAGE')", &[])
                .map_err(|e| self.err(e))?
                .get::<_, bool>(0);
        // Without the right to use the schema its tables cannot even be named.
        if !usage {
            return Ok(Rights {
                schema,
                read: false,
                write: false,
            });
        }
        let tables: bool = self
            .client()?
            .query_one("SELECT to_regclass('tongwen.meta') IS NOT NULL", &[])
            .map_err(|e| self.err(e))?
            .get(0);
        if !tables {
            return Ok(Rights {
                schema: false,
                read: false,
                write: false,
            });
        }
        let row = self
            .client()?
            .query_one(
                "SELECT has_schema_privilege('tongwen', 'USAGE')
                        AND has_table_privilege('tongwen.paragraphs', 'SELECT')
                        AND has_table_privilege('tongwen.meta', 'SELECT'),
                        has_table_privilege('tongwen.documents', 'INSERT')
                        AND has_table_privilege('tongwen.paragraph_keys', 'DELETE')
                        AND has_table_privilege('tongwen.meta', 'UPDATE')",
                &[],
            )
            .map_err(|e| self.err(e))?;
        Ok(Rights {
            schema,
            read: row.get(0),
            write: row.get(1),
        })
    }

    /// Run `f` in one transaction, again (up to 5 times) when the server broke a deadlock or a
    /// serialization conflict with another writer by aborting it.
    fn write<T>(
        &mut self,
        mut f: impl FnMut(&mut postgres::Transaction<'_>) -> std::result::Result<T, WriteError>,
    ) -> Result<T> {
        use postgres::error::SqlState;
        let location = self.location.clone();
        let mut client = self.client()?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut tx = client
                .transaction()
                .map_err(|e| server_error(&location, &e))?;
            let done = f(&mut tx).and_then(|v| tx.commit().map(|()| v).map_err(WriteError::Db));
            match done {
                Ok(v) => return Ok(v),
                Err(WriteError::Db(e))
                    if attempt < 5
                        && matches!(
                            e.code(),
                            Some(&SqlState::T_R_DEADLOCK_DETECTED)
                                | Some(&SqlState::T_R_SERIALIZATION_FAILURE)
                        ) => {}
                Err(WriteError::Db(e)) => return Err(server_error(&location, &e)),
                Err(WriteError::Engine(e)) => return Err(e),
            }
        }
    }

    /// Run a read `f` on the held snapshot, or in a read-only transaction of its own (one snapshot for
    /// all its statements).
    fn read<T>(
        &self,
        f: impl FnOnce(&mut Client) -> std::result::Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut client = self.client()?;
        if self.snapshot.load(Ordering::Relaxed) {
            return f(&mut client).map_err(|e| self.err(e));
        }
        client
            .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .map_err(|e| self.err(e))?;
        match f(&mut client) {
            Ok(v) => {
                client.batch_execute("COMMIT").map_err(|e| self.err(e))?;
                Ok(v)
            }
            Err(e) => {
                // The error is what the user needs; a failed rollback means the connection is gone.
                let _ = client.batch_execute("ROLLBACK");
                Err(self.err(e))
            }
        }
    }
}

impl PgLibrary {
    /// [`PgLibrary::read`] with the second connection too, for statements [`split`] in two; it is
    /// opened here the first time (a failure to open it leaves the statements to the first).
    fn read_split<T>(
        &self,
        f: impl FnOnce(&mut Client, Option<&mut Client>) -> std::result::Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut helper = self
            .helper
            .lock()
            .map_err(|_| Error::Internal("a database call panicked"))?;
        if matches!(*helper, Helper::NotYet) {
            *helper = match connect(&self.target) {
                Ok(c) => Helper::Open(Box::new(c)),
                Err(_) => Helper::Unavailable,
            };
        }
        let (second, _busy) = match &mut *helper {
            Helper::Open(c) => {
                let busy = c.watch.begin();
                (Some(&mut c.client), Some(busy))
            }
            _ => (None, None),
        };
        let done = self.read(|c| f(c, second));
        // A helper whose connection broke is opened again next time.
        if matches!(&*helper, Helper::Open(c) if c.client.is_closed()) {
            *helper = Helper::NotYet;
        }
        done
    }
}

/// Key lookups (and the fetches of many rows by id) split in two: `f` runs on the first half of
/// `items` on `c` and, at the same time, on the second half on `helper`, which reads the same
/// snapshot as `c`'s transaction (exported from it), so the two halves see one library. The server
/// then works on both halves at once (a lookup is bound by the server's per-row work, one core per
/// connection). Without a helper, or for few items, `f` runs once on `c`.
fn split<K: Sync, T: Send>(
    c: &mut Client,
    helper: Option<&mut Client>,
    items: &[K],
    f: impl Fn(&mut Client, &[K]) -> std::result::Result<T, postgres::Error> + Sync,
) -> std::result::Result<Vec<T>, postgres::Error> {
    let Some(h) = helper.filter(|_| items.len() >= SPLIT_AT) else {
        return Ok(vec![f(c, items)?]);
    };
    let (first, second) = items.split_at(items.len() / 2);
    let snapshot: String = c.query_one("SELECT pg_export_snapshot()", &[])?.get(0);
    let imported = h.batch_execute(&format!(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '{}'",
        snapshot.replace('\'', "''")
    ));
    if imported.is_err() {
        // A connection pooler between desktop and server, say, may not carry a snapshot over: one
        // connection does it all.
        let _ = h.batch_execute("ROLLBACK");
        return Ok(vec![f(c, items)?]);
    }
    let (a, b) = std::thread::scope(|scope| {
        let other = scope.spawn(|| f(&mut *h, second));
        let a = f(c, first);
        (a, other.join())
    });
    // Read only: ending it either way is the same.
    let ended = h.batch_execute("ROLLBACK");
    let b = b.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    ended?;
    Ok(vec![a?, b])
}

/// The first connection, taken for one call and watched while it is (see `watch`).
struct Watched<'a> {
    client: MutexGuard<'a, Client>,
    _busy: watch::Busy,
}

impl std::ops::Deref for Watched<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl std::ops::DerefMut for Watched<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.client
    }
}

/// Fewer items than this are looked up on one connection (splitting costs a round trip).
const SPLIT_AT: usize = 64;

/// A failure inside a write transaction: the server's (perhaps retried) or the engine's.
enum WriteError {
    Db(postgres::Error),
    Engine(Error),
}

impl From<postgres::Error> for WriteError {
    fn from(e: postgres::Error) -> Self {
        WriteError::Db(e)
    }
}

/// Every stored key as the server stores it (`integer`, the same 32 bits).
pub(super) fn as_stored(key: u32) -> i32 {
    key as i32
}
