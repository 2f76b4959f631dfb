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

use std::collections::HashMap;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use postgres::binary_copy::BinaryCopyInWriter;
use postgres::config::{Host, SslMode};
use postgres::types::Type;
use postgres::{Client, Config, GenericClient, NoTls, Row};
use rayon::prelude::*;

mod watch;
use watch::Watch;

use super::shortlist::{Candidate, KeyQuery, Shortlist, Shortlisted};
use super::{
    common_paragraph_documents, AddOutcome, DocumentInfo, DocumentMeta, FlatPrints, Generation,
    NewDocument, RefingerprintProgress, Role, SourceParagraph, Sources, Store, Totals,
};
use crate::error::{Error, Result, ServerProblem};
use crate::fingerprint::{shingles, Fingerprinter, FINGERPRINT_VERSION};

/// Seconds to wait for a server to accept a connection, unless the address says otherwise.
pub const CONNECT_TIMEOUT_SECS: u64 = 10;
/// Seconds a statement may run in the server before it is cancelled, unless the address says
/// otherwise (`timeout=`).
pub const STATEMENT_TIMEOUT_SECS: u64 = 120;
/// Seconds beyond the statement timeout that a call waits with nothing moving on its connection
/// before this side gives up on the server.
pub const ANSWER_MARGIN_SECS: u64 = 5;
/// The longest `connect_timeout` or `timeout` an address may ask for (a day).
const MAX_TIMEOUT_SECS: u64 = 86_400;
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
    // 2: how many paragraphs hold each concept key (the cross-language shortlist reads the rarest
    // first), kept exact by the key table's own triggers in the writer's transaction. Each writer
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
const GRANTS: &str = "
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
const MIGRATION_LOCK: i64 = 0x5457_4c42;

/// Whether a library location is a PostgreSQL address rather than a file.
pub fn is_address(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// The address as shown to the user: the password left out, whether in the user part
/// (`user:secret@host`) or as a parameter (`?password=secret`).
pub fn redact(address: &str) -> String {
    let Some((scheme, rest)) = address.split_once("://") else {
        return address.to_string();
    };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{user}@{host}")
        }
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|p| {
                    let key = p.split('=').next().unwrap_or("");
                    !percent_decode(key).eq_ignore_ascii_case("password")
                })
                .collect();
            if kept.iter().all(|p| p.is_empty()) {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// How the connection is encrypted (libpq's `sslmode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TlsMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

/// A parsed address: the driver's configuration and what it does not know.
struct Target {
    config: Config,
    /// The server's statement timeout; calls are given up on [`ANSWER_MARGIN_SECS`] after it.
    timeout: Duration,
    tls: TlsMode,
    root_cert: Option<PathBuf>,
    location: String,
    user: String,
}

fn invalid(reason: String) -> Error {
    Error::InvalidSetting {
        name: "library address",
        reason,
    }
}

/// `%XX` escapes decoded.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&a), Some(&b)) if hex(a).is_some() && hex(b).is_some() => {
                out.push((hex(a).unwrap_or(0) * 16 + hex(b).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn parse(address: &str) -> Result<Target> {
    let location = redact(address);
    let (base, query) = address.split_once('?').unwrap_or((address, ""));
    let mut tls = TlsMode::Prefer;
    let mut root_cert = None;
    let mut timeout = STATEMENT_TIMEOUT_SECS;
    let mut user_options = String::new();
    let mut kept = Vec::new();
    let seconds = |name: &str, v: &str| -> Result<u64> {
        let v = percent_decode(v);
        match v.trim().parse::<u64>() {
            Ok(n) if (1..=MAX_TIMEOUT_SECS).contains(&n) => Ok(n),
            _ => Err(invalid(format!(
                "{name}={v:?}: give whole seconds from 1 to {MAX_TIMEOUT_SECS}"
            ))),
        }
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "timeout" => timeout = seconds(k, v)?,
            "connect_timeout" => {
                seconds(k, v)?;
                kept.push(pair);
            }
            "sslmode" => {
                tls = match percent_decode(v).as_str() {
                    "disable" => TlsMode::Disable,
                    "allow" | "prefer" => TlsMode::Prefer,
                    "require" => TlsMode::Require,
                    "verify-ca" => TlsMode::VerifyCa,
                    "verify-full" => TlsMode::VerifyFull,
                    other => return Err(invalid(format!("unknown sslmode {other:?}"))),
                }
            }
            "sslrootcert" => root_cert = Some(PathBuf::from(percent_decode(v))),
            // The user's own options come after ours, so theirs win.
            "options" => {
                user_options.push(' ');
                user_options.push_str(&percent_decode(v));
            }
            _ => kept.push(pair),
        }
    }
    let options = format!(
        "-c search_path=tongwen -c statement_timeout={timeout}s \
         -c idle_in_transaction_session_timeout={}s{user_options}",
        timeout * 2
    );
    let rebuilt = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    let mut config = Config::from_str(&rebuilt).map_err(|e| invalid(format!("{location}: {e}")))?;
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if config.get_user().is_none() {
        let user = env("PGUSER")
            .or_else(|| env("USER"))
            .or_else(|| env("LOGNAME"))
            .unwrap_or_else(|| "postgres".into());
        config.user(&user);
    }
    if config.get_hosts().is_empty() {
        config.host(&env("PGHOST").unwrap_or_else(|| "localhost".into()));
    }
    if config.get_ports().is_empty() {
        if let Some(port) = env("PGPORT").and_then(|p| p.parse().ok()) {
            config.port(port);
        }
    }
    if config.get_dbname().is_none() {
        if let Some(db) = env("PGDATABASE") {
            config.dbname(&db);
        }
    }
    let user = config.get_user().unwrap_or_default().to_string();
    if config.get_password().is_none() {
        if let Some(password) = env("PGPASSWORD").or_else(|| password_file(&config, &user)) {
            config.password(password);
        }
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(CONNECT_TIMEOUT_SECS));
    }
    config
        .options(&options)
        .application_name("tongwen")
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(30))
        .keepalives_interval(Duration::from_secs(10))
        .keepalives_retries(3)
        .tcp_user_timeout(Duration::from_secs(60))
        .ssl_mode(match tls {
            TlsMode::Disable => SslMode::Disable,
            TlsMode::Prefer => SslMode::Prefer,
            _ => SslMode::Require,
        });
    Ok(Target {
        config,
        timeout: Duration::from_secs(timeout),
        tls,
        root_cert,
        location,
        user,
    })
}

/// The password for this connection in libpq's password file (`PGPASSFILE`, else `~/.pgpass`):
/// lines `host:port:database:user:password`, `*` matching anything, `\` escaping `:` and `\`. A file
/// others may read is ignored, as libpq does.
fn password_file(config: &Config, user: &str) -> Option<String> {
    let path = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".pgpass")))?;
    let meta = std::fs::metadata(&path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            return None;
        }
    }
    #[cfg(not(unix))]
    let _ = &meta;
    let text = std::fs::read_to_string(&path).ok()?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        _ => "localhost".to_string(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let db = config.get_dbname().unwrap_or(user).to_string();
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|line| {
            let fields = split_pgpass(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let ok = |field: &str, value: &str| field == "*" || field == value;
            (ok(h, &host) && ok(p, &port) && ok(d, &db) && ok(u, user)).then(|| password.clone())
        })
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                // `\` keeps the next character as it is.
                let c = if c == '\\' { chars.next() } else { Some(c) };
                if let (Some(c), Some(f)) = (c, fields.last_mut()) {
                    f.push(c)
                }
            }
        }
    }
    fields
}

/// A server's failure as the engine's error: why, in the user's terms.
fn server_error(location: &str, e: &postgres::Error) -> Error {
    use postgres::error::SqlState;
    let problem = if let Some(secs) = watch::fired_limit().filter(|_| e.as_db_error().is_none()) {
        ServerProblem::Timeout(secs)
    } else if let Some(db) = e.as_db_error() {
        let code = db.code();
        let message = db.message().to_string();
        if *code == SqlState::INVALID_PASSWORD {
            ServerProblem::Login(message)
        } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
            if message.contains("no encryption") {
                ServerProblem::TlsRequired
            } else {
                ServerProblem::Login(message)
            }
        } else if *code == SqlState::QUERY_CANCELED {
            ServerProblem::Timeout(STATEMENT_TIMEOUT_SECS)
        } else if *code == SqlState::INSUFFICIENT_PRIVILEGE {
            ServerProblem::Query(format!("permission denied: {message}"))
        } else if *code == SqlState::INVALID_CATALOG_NAME {
            ServerProblem::NoDatabase(message)
        } else if code.code().starts_with("08") || code.code().starts_with("57P") {
            ServerProblem::Unreachable(message)
        } else {
            ServerProblem::Query(message)
        }
    } else {
        let text = std::error::Error::source(e)
            .map(|s| s.to_string())
            .unwrap_or_else(|| e.to_string());
        let full = e.to_string();
        let io = std::error::Error::source(e).and_then(|s| s.downcast_ref::<std::io::Error>());
        if text.contains("password missing") {
            ServerProblem::Login(
                "the server asks for a password and none was given: PGPASSWORD, or a line in \
                 ~/.pgpass that only its owner may read"
                    .into(),
            )
        } else if full.contains("timed out") || text.contains("timed out") {
            ServerProblem::Timeout(CONNECT_TIMEOUT_SECS)
        } else if ["TLS", "tls", "SSL", "ssl", "certificate"]
            .iter()
            .any(|w| full.contains(w) || text.contains(w))
        {
            ServerProblem::Tls(text)
        } else if io.is_some() || e.is_closed() {
            ServerProblem::Unreachable(text)
        } else {
            ServerProblem::Query(format!("{full}: {text}"))
        }
    };
    Error::Server {
        location: location.to_string(),
        problem,
    }
}

/// A connection and its watch (see `watch`).
struct Connection {
    client: Client,
    watch: Watch,
}

/// Connect, and watch the new connection's socket.
fn connect(target: &Target) -> Result<Connection> {
    let port = target.config.get_ports().first().copied().unwrap_or(5432);
    let before = watch::sockets_to(port);
    let client = connect_client(target)?;
    let after = watch::sockets_to(port);
    let limit = target.timeout + Duration::from_secs(ANSWER_MARGIN_SECS);
    Ok(Connection {
        client,
        watch: Watch::new(&before, &after, limit),
    })
}

fn connect_client(target: &Target) -> Result<Client> {
    let connected = match target.tls {
        TlsMode::Disable => within_timeout(target, |config| config.connect(NoTls)),
        mode => {
            let mut builder = native_tls::TlsConnector::builder();
            if let Some(path) = &target.root_cert {
                let pem = std::fs::read(path).map_err(|e| Error::io(path, e))?;
                let cert = native_tls::Certificate::from_pem(&pem).map_err(|e| Error::Server {
                    location: target.location.clone(),
                    problem: ServerProblem::Tls(format!("{}: {e}", path.display())),
                })?;
                builder.add_root_certificate(cert);
            }
            let verify_chain = matches!(mode, TlsMode::VerifyCa | TlsMode::VerifyFull)
                || (mode == TlsMode::Require && target.root_cert.is_some());
            builder
                .danger_accept_invalid_certs(!verify_chain)
                .danger_accept_invalid_hostnames(mode != TlsMode::VerifyFull);
            let connector = builder.build().map_err(|e| Error::Server {
                location: target.location.clone(),
                problem: ServerProblem::Tls(e.to_string()),
            })?;
            let tls = postgres_native_tls::MakeTlsConnector::new(connector);
            within_timeout(target, move |config| config.connect(tls))
        }
    };
    connected
}

/// Connect on a thread of its own, giving up after the connect timeout: the driver's own timeout
/// covers only the TCP handshake, and a server (or anything else at the address) that accepts the
/// connection and never answers would otherwise hang the caller. A connection attempt given up on
/// ends with its thread when the peer closes or the process exits.
fn within_timeout(
    target: &Target,
    connect: impl FnOnce(&Config) -> std::result::Result<Client, postgres::Error> + Send + 'static,
) -> Result<Client> {
    let limit = target
        .config
        .get_connect_timeout()
        .copied()
        .unwrap_or(Duration::from_secs(CONNECT_TIMEOUT_SECS));
    let config = target.config.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("tongwen-connect".into())
        .spawn(move || {
            let _ = tx.send(connect(&config));
        })
        .map_err(|e| Error::io(PathBuf::from(&target.location), e))?;
    match rx.recv_timeout(limit) {
        Ok(connected) => connected.map_err(|e| server_error(&target.location, &e)),
        Err(_) => Err(Error::Server {
            location: target.location.clone(),
            problem: ServerProblem::Timeout(limit.as_secs().max(1)),
        }),
    }
}

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

    fn schema_version(&self) -> Result<i64> {
        let v: i32 = self
            .client()?
            .query_one("SELECT schema_version FROM tongwen.meta", &[])
            .map_err(|e| self.err(e))?
            .get(0);
        Ok(v as i64)
    }

    /// Apply every migration above the schema's version, each in its own transaction under the
    /// migration lock, and grant the roles their rights.
    fn migrate(&mut self) -> Result<()> {
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

    fn migrate_once(&mut self) -> Result<()> {
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

const DOC_COLUMNS: &str =
    "id, title, path, format, content_hash, bytes, paragraphs, chars, added_at, \
     role, author, year, \
     ARRAY(SELECT tag FROM document_tags t WHERE t.document_id = documents.id ORDER BY tag)";

fn doc_row(r: &Row) -> DocumentInfo {
    DocumentInfo {
        id: r.get(0),
        title: r.get(1),
        path: r.get(2),
        format: r.get(3),
        content_hash: r.get(4),
        bytes: r.get::<_, i64>(5) as u64,
        paragraphs: r.get::<_, i64>(6) as u64,
        chars: r.get::<_, i64>(7) as u64,
        added_at: r.get(8),
        role: Role::from_name(r.get(9)).unwrap_or_default(),
        author: r.get(10),
        year: r.get(11),
        tags: r.get(12),
    }
}

fn document_by_id(
    c: &mut impl GenericClient,
    id: i64,
) -> std::result::Result<Option<DocumentInfo>, postgres::Error> {
    Ok(c.query_opt(
        &format!("SELECT {DOC_COLUMNS} FROM documents WHERE id = $1"),
        &[&id],
    )?
    .map(|r| doc_row(&r)))
}

fn set_tags(
    c: &mut impl GenericClient,
    id: i64,
    tags: &[String],
) -> std::result::Result<(), postgres::Error> {
    c.execute("DELETE FROM document_tags WHERE document_id = $1", &[&id])?;
    let tags: Vec<&str> = tags
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .collect();
    c.execute(
        "INSERT INTO document_tags (document_id, tag) SELECT $1, unnest($2::text[])
         ON CONFLICT DO NOTHING",
        &[&id, &tags],
    )?;
    Ok(())
}

/// A new random change stamp, with the counts moved by `documents` and `paragraphs`.
fn bump(
    c: &mut impl GenericClient,
    documents: i64,
    paragraphs: i64,
) -> std::result::Result<(), postgres::Error> {
    c.execute(
        "UPDATE meta SET generation = (random() * 9.2e18)::bigint,
                         documents = documents + $1, paragraphs = paragraphs + $2",
        &[&documents, &paragraphs],
    )
    .map(|_| ())
}

/// Every stored key as the server stores it (`integer`, the same 32 bits).
fn as_stored(key: u32) -> i32 {
    key as i32
}

/// Write the keys of paragraphs (`(paragraph id, keys)`) into `paragraph_keys` with COPY.
fn copy_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: impl Iterator<Item = (i64, Vec<u32>)>,
) -> std::result::Result<(), postgres::Error> {
    // In key order: each insert lands next to the previous one in the key index, not at a random
    // page of it.
    let mut pairs: Vec<(i32, i64)> = rows
        .flat_map(|(id, keys)| keys.into_iter().map(move |k| (as_stored(k), id)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let sink = tx.copy_in("COPY paragraph_keys (key, paragraph_id) FROM STDIN BINARY")?;
    let mut writer = BinaryCopyInWriter::new(sink, &[Type::INT4, Type::INT8]);
    for (key, id) in &pairs {
        writer.write(&[key, id])?;
    }
    writer.finish()?;
    Ok(())
}

/// Add the keys of paragraphs (`(paragraph id, keys)`) to `paragraph_keys`, leaving those already there.
fn insert_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: &[(i64, Vec<u32>)],
) -> std::result::Result<(), postgres::Error> {
    for_key_pairs(
        tx,
        "INSERT INTO paragraph_keys (key, paragraph_id)
         SELECT * FROM unnest($1::integer[], $2::bigint[]) ON CONFLICT DO NOTHING",
        rows.iter()
            .flat_map(|(id, keys)| keys.iter().map(move |&k| (k, *id))),
    )
}

/// Remove the keys of paragraphs (`(paragraph id, stored keys)`) from `paragraph_keys`.
fn delete_keys(
    tx: &mut postgres::Transaction<'_>,
    rows: &[(i64, Vec<u8>)],
) -> std::result::Result<(), postgres::Error> {
    for_key_pairs(
        tx,
        "DELETE FROM paragraph_keys WHERE (key, paragraph_id) IN
             (SELECT * FROM unnest($1::integer[], $2::bigint[]))",
        rows.iter()
            .flat_map(|(id, blob)| shingles::decode(blob).map(move |k| (k, *id))),
    )
}

/// Run `sql` (taking the keys as `$1` and the paragraph ids as `$2`) on `(key, paragraph id)` pairs,
/// 100,000 at a time.
fn for_key_pairs(
    tx: &mut postgres::Transaction<'_>,
    sql: &str,
    pairs: impl Iterator<Item = (u32, i64)>,
) -> std::result::Result<(), postgres::Error> {
    let (keys, ids): (Vec<i32>, Vec<i64>) = pairs.map(|(k, id)| (as_stored(k), id)).unzip();
    for (k, i) in keys.chunks(100_000).zip(ids.chunks(100_000)) {
        tx.execute(sql, &[&k, &i])?;
    }
    Ok(())
}

impl Sources for PgLibrary {
    fn source_paragraphs(&self, ids: &[i64]) -> Result<HashMap<i64, SourceParagraph>> {
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty() {
            return Ok(HashMap::new());
        }
        let parts = self.read_split(|c, helper| {
            let documents: i64 = c.query_one("SELECT documents FROM meta", &[])?.get(0);
            let common_at = common_paragraph_documents(documents.max(0) as u64) as i64;
            let counted = documents >= common_at;
            split(c, helper, &sorted, |c, ids| {
                c.query(
                    "SELECT p.id, p.document_id, p.idx, p.text, d.title, d.path, d.role, d.author,
                            CASE WHEN $2 THEN (SELECT count(DISTINCT q.document_id) FROM paragraphs q
                                               WHERE q.simhash = p.simhash AND q.text = p.text) >= $3
                                 ELSE false END
                     FROM paragraphs p JOIN documents d ON d.id = p.document_id
                     WHERE p.id = ANY($1)",
                    &[&ids, &counted, &common_at],
                )
            })
        })?;
        Ok(parts
            .iter()
            .flatten()
            .map(|r| {
                let id: i64 = r.get(0);
                let role: &str = r.get(6);
                (
                    id,
                    SourceParagraph {
                        paragraph_id: id,
                        document_id: r.get(1),
                        index: r.get::<_, i32>(2) as u32,
                        text: r.get(3),
                        document_title: r.get(4),
                        document_path: r.get(5),
                        document_role: Role::from_name(role).unwrap_or_default(),
                        document_author: r.get(7),
                        common: r.get(8),
                    },
                )
            })
            .collect())
    }
}

/// Postings of a submission's keys, as the server's key index holds them: each key's paragraphs in id
/// order, at most `limit + 1` of them (enough to tell a key held by more than `limit` paragraphs).
type Postings = rustc_hash::FxHashMap<u32, Vec<i64>>;

/// The shortlist's queries to the server: the postings of the submission's distinct keys (one
/// statement: every key looked up in the key index, [`split`] over two connections), then the
/// shortlisted paragraphs' documents and fingerprints (one statement). The counting between them is
/// the in-memory index's, on these postings only, so both backends shortlist alike
/// (`check::Index::shortlist`, `shortlist_rare`).
fn postings(
    c: &mut Client,
    helper: Option<&mut Client>,
    keys: &[i32],
    limit: i64,
) -> std::result::Result<Postings, postgres::Error> {
    let parts = split(c, helper, keys, |c, keys| {
        c.query(
            "SELECT k.key, ARRAY(SELECT p.paragraph_id FROM paragraph_keys p WHERE p.key = k.key
                                 ORDER BY p.paragraph_id LIMIT $2::bigint + 1)
             FROM unnest($1::integer[]) AS k(key)",
            &[&keys, &limit],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, Vec<i64>>(1)))
        .filter(|(_, ids)| !ids.is_empty())
        .collect())
}

/// The queries' keys, each once, as the server stores them.
fn distinct_keys(queries: &[KeyQuery<'_>]) -> Vec<i32> {
    let mut keys: Vec<i32> = queries
        .iter()
        .flat_map(|q| q.keys.iter().map(|&k| as_stored(k)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// How many paragraphs hold each of the queries' distinct concept keys, counting at most `limit + 1`
/// (keys no paragraph holds are left out): the sums of the keys' counters in `concept_counts`, one
/// index lookup per key and slot, however many paragraphs hold the key.
fn concept_counts(
    c: &mut Client,
    helper: Option<&mut Client>,
    queries: &[KeyQuery<'_>],
    limit: i64,
) -> std::result::Result<rustc_hash::FxHashMap<u32, i64>, postgres::Error> {
    let keys = distinct_keys(queries);
    let parts = split(c, helper, &keys, |c, keys| {
        c.query(
            "SELECT key, sum(paragraphs)::bigint FROM concept_counts WHERE key = ANY($1)
             GROUP BY key",
            &[&keys],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, i64>(1).min(limit + 1)))
        .filter(|&(_, n)| n > 0)
        .collect())
}

/// Documents and SimHashes of paragraphs, by id.
fn paragraph_prints(
    c: &mut Client,
    helper: Option<&mut Client>,
    ids: &[i64],
) -> std::result::Result<rustc_hash::FxHashMap<i64, (i64, u64)>, postgres::Error> {
    let parts = split(c, helper, ids, |c, ids| {
        c.query(
            "SELECT id, document_id, simhash FROM paragraphs WHERE id = ANY($1)",
            &[&ids],
        )
    })?;
    Ok(parts
        .iter()
        .flatten()
        .map(|r| (r.get(0), (r.get(1), r.get::<_, i64>(2) as u64)))
        .collect())
}

/// For each query's shared-key counts: those with at least its `min_shared` and not in document
/// `exclude`, most first, ties by paragraph id, at most `n`; as candidates (`Index::most_shared`).
fn most_shared(
    c: &mut Client,
    helper: Option<&mut Client>,
    counted: Vec<(Vec<(i64, u32)>, u32)>,
    n: usize,
    exclude: Option<i64>,
) -> std::result::Result<Vec<Shortlisted>, postgres::Error> {
    let rank = |list: &mut Vec<(i64, u32)>| {
        list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)))
    };
    let mut lists: Vec<Vec<(i64, u32)>> = counted
        .into_iter()
        .map(|(list, min_shared)| {
            let mut list: Vec<(i64, u32)> =
                list.into_iter().filter(|&(_, s)| s >= min_shared).collect();
            rank(&mut list);
            if exclude.is_none() {
                list.truncate(n);
            }
            list
        })
        .collect();
    let mut ids: Vec<i64> = lists.iter().flatten().map(|&(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    let prints = paragraph_prints(c, helper, &ids)?;
    Ok(lists
        .iter_mut()
        .map(|list| {
            list.iter()
                .filter_map(|&(id, shared)| {
                    let &(document_id, simhash) = prints.get(&id)?;
                    (exclude != Some(document_id)).then_some((
                        Candidate {
                            paragraph_id: id,
                            document_id,
                            simhash,
                        },
                        shared,
                    ))
                })
                .take(n)
                .collect()
        })
        .collect())
}

/// Paragraphs in the library (kept in `meta`, so no table is counted).
fn paragraph_count(c: &mut Client) -> std::result::Result<i64, postgres::Error> {
    Ok(c.query_one("SELECT paragraphs FROM meta", &[])?.get(0))
}

impl Shortlist for PgLibrary {
    fn shortlist_each(
        &self,
        queries: &[KeyQuery<'_>],
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        self.read_split(|c, mut helper| {
            // A key in more than 1% of the paragraphs (at least 1,000) says nothing of a source.
            let limit = (paragraph_count(c)? / 100).max(1_000);
            let keys = distinct_keys(queries);
            let postings = postings(c, helper.as_deref_mut(), &keys, limit)?;
            let counted = queries
                .par_iter()
                .map(|q| {
                    let mut counts: rustc_hash::FxHashMap<i64, u32> = Default::default();
                    for key in q.keys {
                        match postings.get(key) {
                            Some(ids) if ids.len() as i64 <= limit => {
                                for &id in ids {
                                    *counts.entry(id).or_default() += 1;
                                }
                            }
                            _ => {}
                        }
                    }
                    (counts.into_iter().collect(), q.min_shared)
                })
                .collect();
            most_shared(c, helper, counted, n, exclude)
        })
    }

    fn shortlist_rare_each(
        &self,
        queries: &[KeyQuery<'_>],
        lookups: usize,
        n: usize,
        exclude: Option<i64>,
    ) -> Result<Vec<Shortlisted>> {
        let budget = crate::library::shortlist::RARE_POSTINGS_BUDGET;
        self.read_split(|c, mut helper| {
            // A concept in more than 0.5% of the paragraphs (at least 100) is skipped; one held by
            // more than the budget is never read either (it would pass the budget alone).
            let limit = (paragraph_count(c)? / 200).max(100).min(budget as i64 + 1);
            // Each paragraph reads only its rarest keys, so the keys' counters are read first and the
            // postings fetched only of the keys some paragraph reads.
            let held = concept_counts(c, helper.as_deref_mut(), queries, limit)?;
            let chosen: Vec<Vec<u32>> = queries
                .iter()
                .map(|q| {
                    let mut keys: Vec<(u32, i64)> = q
                        .keys
                        .iter()
                        .filter_map(|k| Some((*k, *held.get(k)?)))
                        .filter(|&(_, n)| n <= limit)
                        .collect();
                    keys.sort_by_key(|&(_, n)| n);
                    keys.truncate(lookups);
                    let mut read = 0;
                    let within = keys
                        .iter()
                        .take_while(|&&(_, n)| {
                            read += n as usize;
                            read <= budget
                        })
                        .count();
                    if within < q.min_shared as usize {
                        return Vec::new();
                    }
                    keys[..within].iter().map(|&(k, _)| k).collect()
                })
                .collect();
            let wanted: Vec<KeyQuery<'_>> = chosen
                .iter()
                .map(|keys| KeyQuery {
                    keys,
                    min_shared: 0,
                })
                .collect();
            let postings = postings(c, helper.as_deref_mut(), &distinct_keys(&wanted), limit)?;
            let counted = queries
                .par_iter()
                .zip(&chosen)
                .map(|(q, keys)| {
                    let mut all: Vec<i64> = keys
                        .iter()
                        .filter_map(|k| postings.get(k))
                        .flat_map(|l| l.iter().copied())
                        .collect();
                    all.sort_unstable();
                    let counts = all
                        .chunk_by(|a, b| a == b)
                        .map(|run| (run[0], run.len() as u32))
                        .collect();
                    (counts, q.min_shared)
                })
                .collect();
            most_shared(c, helper, counted, n, exclude)
        })
    }

    fn holds_keys_in_range(&self, lo: u32, hi: u32) -> Result<bool> {
        // Stored as signed: a range that crosses 2^31 is two ranges.
        let ranges: Vec<(i32, i32)> = if (lo as i32) <= (hi as i32) {
            vec![(lo as i32, hi as i32)]
        } else {
            vec![(lo as i32, i32::MAX), (i32::MIN, hi as i32)]
        };
        self.read(|c| {
            for (a, b) in ranges {
                let found: bool = c
                    .query_one(
                        "SELECT EXISTS (SELECT 1 FROM paragraph_keys WHERE key BETWEEN $1 AND $2)",
                        &[&a, &b],
                    )?
                    .get(0);
                if found {
                    return Ok(true);
                }
            }
            Ok(false)
        })
    }
}

impl Store for PgLibrary {
    fn location(&self) -> String {
        self.location.clone()
    }

    fn list(&self) -> Result<Vec<DocumentInfo>> {
        let rows = self.read(|c| {
            c.query(
                &format!("SELECT {DOC_COLUMNS} FROM documents ORDER BY id"),
                &[],
            )
        })?;
        Ok(rows.iter().map(doc_row).collect())
    }

    fn totals(&self) -> Result<Totals> {
        let row = self.read(|c| {
            c.query_one(
                "SELECT count(*), COALESCE(sum(paragraphs), 0)::bigint, COALESCE(sum(chars), 0)::bigint
                 FROM documents",
                &[],
            )
        })?;
        Ok(Totals {
            documents: row.get::<_, i64>(0) as u64,
            paragraphs: row.get::<_, i64>(1) as u64,
            chars: row.get::<_, i64>(2) as u64,
        })
    }

    fn generation(&self) -> Result<Generation> {
        let row = self.read(|c| c.query_one("SELECT library_id, generation FROM meta", &[]))?;
        Ok(Generation {
            library_id: row.get(0),
            generation: row.get(1),
        })
    }

    fn hold_snapshot(&self) -> Result<()> {
        if !self.snapshot.load(Ordering::Relaxed) {
            // The snapshot is taken at the transaction's first statement, here.
            self.client()?
                .batch_execute(
                    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT generation FROM meta;",
                )
                .map_err(|e| self.err(e))?;
            self.snapshot.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    fn load_flat_prints(&self) -> Result<(Generation, FlatPrints)> {
        let (generation, rows) = self.read(|c| {
            let g = c.query_one("SELECT library_id, generation FROM meta", &[])?;
            let rows = c.query(
                "SELECT id, document_id, simhash, shingles FROM paragraphs ORDER BY id",
                &[],
            )?;
            Ok((
                Generation {
                    library_id: g.get(0),
                    generation: g.get(1),
                },
                rows,
            ))
        })?;
        let mut flat = FlatPrints::default();
        let mut keys = Vec::new();
        for r in &rows {
            keys.clear();
            keys.extend(shingles::decode(r.get(3)));
            flat.push(r.get(0), r.get(1), r.get::<_, i64>(2) as u64, &keys);
        }
        Ok((generation, flat))
    }

    /// A server's library is never indexed on the desktop's disk.
    fn index_path(&self) -> Option<PathBuf> {
        None
    }

    fn stale_paragraphs(&self) -> Result<u64> {
        let version = FINGERPRINT_VERSION as i32;
        let row = self.read(|c| {
            c.query_one(
                "SELECT (SELECT count(*) FROM paragraphs WHERE algo < $1)
                      + (SELECT count(*) FROM paragraphs WHERE algo > $1)",
                &[&version],
            )
        })?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    fn paragraph_ids_of(&self, documents: &[i64]) -> Result<Vec<i64>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT p.id FROM unnest($1::bigint[]) WITH ORDINALITY AS d(id, n)
                 JOIN paragraphs p ON p.document_id = d.id ORDER BY d.n, p.idx",
                &[&documents],
            )
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn server_shortlist(&self) -> Option<&dyn Shortlist> {
        Some(self)
    }

    fn add_batch(&mut self, docs: &[&NewDocument]) -> Result<Vec<AddOutcome>> {
        let version = FINGERPRINT_VERSION as i32;
        self.write(|tx| {
            let mut outcomes = Vec::with_capacity(docs.len());
            let mut added: Vec<(i64, &NewDocument)> = Vec::new();
            for doc in docs {
                let chars: u64 = doc.paragraphs.iter().map(|p| p.chars).sum();
                // Another desktop adding the same content at once: this waits for its commit, then
                // finds the document there.
                let inserted = tx.query_opt(
                    "INSERT INTO documents (title, path, format, content_hash, bytes, paragraphs, chars,
                                            added_at, role, author, year)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                     ON CONFLICT (content_hash) DO NOTHING RETURNING id",
                    &[
                        &doc.meta.title.as_deref().unwrap_or(&doc.title),
                        &doc.path,
                        &doc.format.as_str(),
                        &doc.content_hash,
                        &(doc.bytes as i64),
                        &(doc.paragraphs.len() as i64),
                        &(chars as i64),
                        &super::now(),
                        &doc.meta.role.as_str(),
                        &doc.meta.author,
                        &doc.meta.year,
                    ],
                )?;
                match inserted {
                    Some(row) => {
                        let id: i64 = row.get(0);
                        set_tags(tx, id, &doc.meta.tags)?;
                        added.push((id, doc));
                        outcomes.push(None);
                    }
                    None => {
                        let existing = tx
                            .query_one(
                                &format!("SELECT {DOC_COLUMNS} FROM documents WHERE content_hash = $1"),
                                &[&doc.content_hash],
                            )
                            .map(|r| doc_row(&r))?;
                        outcomes.push(Some(AddOutcome::AlreadyPresent(existing)));
                    }
                }
            }
            let count: usize = added.iter().map(|(_, d)| d.paragraphs.len()).sum();
            if count > 0 {
                let mut ids: Vec<i64> = tx
                    .query(
                        "SELECT nextval('paragraphs_id_seq') FROM generate_series(1, $1::bigint)",
                        &[&(count as i64)],
                    )?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                ids.sort_unstable();
                let sink = tx.copy_in(
                    "COPY paragraphs (id, document_id, idx, kind, level, text, chars, simhash, shingles, algo)
                     FROM STDIN BINARY",
                )?;
                let mut writer = BinaryCopyInWriter::new(
                    sink,
                    &[
                        Type::INT8,
                        Type::INT8,
                        Type::INT4,
                        Type::TEXT,
                        Type::INT2,
                        Type::TEXT,
                        Type::INT8,
                        Type::INT8,
                        Type::BYTEA,
                        Type::INT4,
                    ],
                );
                let mut next = ids.iter();
                let mut keyed: Vec<(i64, Vec<u32>)> = Vec::with_capacity(count);
                for (document_id, doc) in &added {
                    for (idx, p) in doc.paragraphs.iter().enumerate() {
                        let id = *next.next().ok_or(WriteError::Engine(Error::Internal(
                            "the server gave fewer paragraph ids than asked",
                        )))?;
                        writer.write(&[
                            &id,
                            document_id,
                            &(idx as i32),
                            &p.kind.as_str(),
                            &p.level.map(i16::from),
                            &p.text,
                            &(p.chars as i64),
                            &(p.simhash as i64),
                            &shingles::encode(&p.shingles),
                            &version,
                        ])?;
                        keyed.push((id, p.shingles.clone()));
                    }
                }
                writer.finish()?;
                copy_keys(tx, keyed.into_iter())?;
            }
            if !added.is_empty() {
                bump(tx, added.len() as i64, count as i64)?;
            }
            let mut fresh = added.iter();
            let mut out = Vec::with_capacity(outcomes.len());
            for o in outcomes {
                out.push(match o {
                    Some(o) => o,
                    None => {
                        let (id, _) = fresh.next().ok_or(WriteError::Engine(Error::Internal(
                            "an added document went missing",
                        )))?;
                        let info = document_by_id(tx, *id)?.ok_or(WriteError::Engine(
                            Error::Internal("an added document went missing"),
                        ))?;
                        AddOutcome::Added(info)
                    }
                });
            }
            Ok(out)
        })
    }

    fn remove(&mut self, ids: &[i64]) -> Result<Vec<DocumentInfo>> {
        self.write(|tx| {
            let mut removed = Vec::with_capacity(ids.len());
            let mut paragraphs = 0i64;
            for &id in ids {
                let info =
                    document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))?;
                let keyed: Vec<(i64, Vec<u8>)> = tx
                    .query(
                        "SELECT id, shingles FROM paragraphs WHERE document_id = $1 FOR UPDATE",
                        &[&id],
                    )?
                    .iter()
                    .map(|r| (r.get(0), r.get(1)))
                    .collect();
                delete_keys(tx, &keyed)?;
                paragraphs += keyed.len() as i64;
                tx.execute("DELETE FROM documents WHERE id = $1", &[&id])?;
                removed.push(info);
            }
            bump(tx, -(removed.len() as i64), -paragraphs)?;
            Ok(removed)
        })
    }

    fn set_meta(&mut self, id: i64, meta: &DocumentMeta) -> Result<DocumentInfo> {
        self.write(|tx| {
            let current =
                document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))?;
            tx.execute(
                "UPDATE documents SET title = $2, role = $3, author = $4, year = $5 WHERE id = $1",
                &[
                    &id,
                    &meta.title.as_deref().unwrap_or(&current.title),
                    &meta.role.as_str(),
                    &meta.author,
                    &meta.year,
                ],
            )?;
            set_tags(tx, id, &meta.tags)?;
            bump(tx, 0, 0)?;
            document_by_id(tx, id)?.ok_or(WriteError::Engine(Error::NoSuchDocument(id)))
        })
    }

    /// Stale paragraphs re-fingerprinted in chunks of 4,096, in one transaction; `cancel` rolls back.
    fn refingerprint_stale(
        &mut self,
        fingerprinter: &Fingerprinter,
        progress: &mut dyn FnMut(RefingerprintProgress),
        cancel: &AtomicBool,
    ) -> Result<u64> {
        let total = self.stale_paragraphs()?;
        if total == 0 {
            return Ok(0);
        }
        let version = FINGERPRINT_VERSION as i32;
        self.write(|tx| {
            let mut done = 0u64;
            let mut after = i64::MIN;
            loop {
                let stale: Vec<(i64, String, Vec<u8>)> = tx
                    .query(
                        "SELECT id, text, shingles FROM paragraphs
                         WHERE id > $1 AND (algo < $2 OR algo > $2) ORDER BY id LIMIT 4096",
                        &[&after, &version],
                    )?
                    .iter()
                    .map(|r| (r.get(0), r.get(1), r.get(2)))
                    .collect();
                let Some(&(last, _, _)) = stale.last().map(|(i, t, k)| (i, t, k)).as_ref() else {
                    break;
                };
                let old: Vec<(i64, Vec<u8>)> =
                    stale.iter().map(|(id, _, k)| (*id, k.clone())).collect();
                delete_keys(tx, &old)?;
                let prints: Vec<_> = stale
                    .par_iter()
                    .map(|(_, text, _)| fingerprinter.paragraph(text))
                    .collect();
                let mut keyed = Vec::with_capacity(stale.len());
                for ((id, _, _), print) in stale.iter().zip(&prints) {
                    let keys = print.index_keys();
                    tx.execute(
                        "UPDATE paragraphs SET simhash = $2, shingles = $3, algo = $4 WHERE id = $1",
                        &[id, &(print.simhash as i64), &shingles::encode(&keys), &version],
                    )?;
                    keyed.push((*id, keys));
                }
                insert_keys(tx, &keyed)?;
                done += stale.len() as u64;
                after = *last;
                progress(RefingerprintProgress { done, total });
                if cancel.load(Ordering::Relaxed) {
                    return Err(WriteError::Engine(Error::Cancelled));
                }
            }
            bump(tx, 0, 0)?;
            Ok(done)
        })
    }
}

#[cfg(test)]
mod tests {
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
        let Some(admin) = tongwen_testdata::test_postgres_for(
            "split_lookups_share_one_snapshot_on_two_connections",
        ) else {
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
        let t =
            parse("postgres://alice:pw@127.0.0.1:5999/lib?sslmode=verify-full&connect_timeout=3")
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
}
