//! Connections to the server: TLS as the address asks, a connect timeout kept even where the driver's
//! own is not, each connection watched (see `watch`), and the server's failures in the user's terms.

use std::path::PathBuf;
use std::time::Duration;

use postgres::{Client, Config, NoTls};

use super::address::{
    Target, TlsMode, ANSWER_MARGIN_SECS, CONNECT_TIMEOUT_SECS, STATEMENT_TIMEOUT_SECS,
};
use super::watch::{self, Watch};
use crate::error::{Error, Result, ServerProblem};

/// A server's failure as the engine's error: why, in the user's terms.
pub(super) fn server_error(location: &str, e: &postgres::Error) -> Error {
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
pub(super) struct Connection {
    pub(super) client: Client,
    pub(super) watch: Watch,
}

/// Connect, and watch the new connection's socket.
pub(super) fn connect(target: &Target) -> Result<Connection> {
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

pub(super) fn connect_client(target: &Target) -> Result<Client> {
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
pub(super) fn within_timeout(
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
