# A throw-away PostgreSQL server for the test suite (sourced by scripts/test, not run): Debian's own
# PostgreSQL 15 binaries, a new cluster in a temporary folder, listening on 127.0.0.1 at a free port,
# run as an unprivileged user (PostgreSQL refuses root: uid 65534 when the suite runs as root).
#
#   pg_start    start it; exports TONGWEN_TEST_POSTGRES=postgres://tongwen@127.0.0.1:PORT/tongwen (the
#               superuser; TLS offered; role tongwen_tls may log in only over TLS, other roles by password)
#               and TONGWEN_TEST_POSTGRES_CERT (the server's self-signed certificate)
#   pg_stop     stop it and remove its folder (scripts/test calls it on exit)

TONGWEN_PG_DIR=""

_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

_as_pg() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  local bin port
  bin="$(_pg_bin)"
  [ -x "$bin/initdb" ] || { echo "PostgreSQL not found (apt-get install postgresql-15)" >&2; return 1; }
  TONGWEN_PG_DIR="$(mktemp -d)"
  [ "$(id -u)" = 0 ] && chown 65534:65534 "$TONGWEN_PG_DIR"
  _as_pg "$bin/initdb" -D "$TONGWEN_PG_DIR/data" -U tongwen --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$TONGWEN_PG_DIR/initdb.log" 2>&1 || { cat "$TONGWEN_PG_DIR/initdb.log" >&2; return 1; }
  # TLS with a throw-away self-signed certificate. Who may log in how: the superuser `tongwen` without a
  # password; `tongwen_tls` only over TLS; every other role (the tests make them) with its password.
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
    -keyout "$TONGWEN_PG_DIR/data/server.key" -out "$TONGWEN_PG_DIR/data/server.crt" >/dev/null 2>&1 \
    || { echo "openssl could not make the test certificate" >&2; return 1; }
  chmod 600 "$TONGWEN_PG_DIR/data/server.key"
  [ "$(id -u)" = 0 ] && chown 65534:65534 "$TONGWEN_PG_DIR/data/server.key" "$TONGWEN_PG_DIR/data/server.crt"
  cat >"$TONGWEN_PG_DIR/data/pg_hba.conf" <<'HBA'
local     all all                     trust
host      all tongwen    127.0.0.1/32 trust
hostssl   all tongwen_tls 127.0.0.1/32 trust
host      all tongwen_tls 127.0.0.1/32 reject
host      all all        127.0.0.1/32 scram-sha-256
HBA
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  _as_pg "$bin/pg_ctl" -D "$TONGWEN_PG_DIR/data" -l "$TONGWEN_PG_DIR/server.log" -w -t 60 \
    -o "-p $port -k $TONGWEN_PG_DIR -c listen_addresses=127.0.0.1 -c ssl=on" start >/dev/null \
    || { cat "$TONGWEN_PG_DIR/server.log" >&2; return 1; }
  _as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U tongwen tongwen
  export TONGWEN_TEST_POSTGRES="postgres://tongwen@127.0.0.1:$port/tongwen"
  export TONGWEN_TEST_POSTGRES_CERT="$TONGWEN_PG_DIR/server.crt"
  cp "$TONGWEN_PG_DIR/data/server.crt" "$TONGWEN_TEST_POSTGRES_CERT"
  echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

pg_stop() {
  [ -n "$TONGWEN_PG_DIR" ] || return 0
  _as_pg "$(_pg_bin)/pg_ctl" -D "$TONGWEN_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$TONGWEN_PG_DIR"
  TONGWEN_PG_DIR=""
}
