//! Addresses of a PostgreSQL library with libpq's conventions: parsing (environment defaults, TLS
//! modes, timeouts), the password file, and the address as shown with its password left out.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use postgres::config::{Host, SslMode};
use postgres::Config;

use crate::error::{Error, Result};

/// Seconds to wait for a server to accept a connection, unless the address says otherwise.
pub const CONNECT_TIMEOUT_SECS: u64 = 10;
/// Seconds a statement may run in the server before it is cancelled, unless the address says
/// otherwise (`timeout=`).
pub const STATEMENT_TIMEOUT_SECS: u64 = 120;
/// Seconds beyond the statement timeout that a call waits with nothing moving on its connection
/// before this side gives up on the server.
pub const ANSWER_MARGIN_SECS: u64 = 5;
/// The longest `connect_timeout` or `timeout` an address may ask for (a day).
pub(super) const MAX_TIMEOUT_SECS: u64 = 86_400;

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
pub(super) enum TlsMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

/// A parsed address: the driver's configuration and what it does not know.
pub(super) struct Target {
    pub(super) config: Config,
    /// The server's statement timeout; calls are given up on [`ANSWER_MARGIN_SECS`] after it.
    pub(super) timeout: Duration,
    pub(super) tls: TlsMode,
    pub(super) root_cert: Option<PathBuf>,
    pub(super) location: String,
    pub(super) user: String,
}

pub(super) fn invalid(reason: String) -> Error {
    Error::InvalidSetting {
        name: "library address",
        reason,
    }
}

/// `%XX` escapes decoded.
pub(super) fn percent_decode(s: &str) -> String {
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

pub(super) fn parse(address: &str) -> Result<Target> {
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
pub(super) fn password_file(config: &Config, user: &str) -> Option<String> {
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

pub(super) fn split_pgpass(line: &str) -> Vec<String> {
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
