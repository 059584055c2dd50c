# shellcheck shell=bash
# Throwaway PostgreSQL server for tests and benchmarks. Source this file, then:
#   pg_install             install Debian's `postgresql` package if no server is found
#   pg_start [SETTING...]  start a server on a free 127.0.0.1 port, with TLS from a
#                          throwaway CA, and export
#                          SKIPPR_TEST_PG_{HOST,PORT,USER,PASSWORD,DATABASE,BIN} and
#                          SKIPPR_TEST_PG_CA (that CA's certificate) and
#                          SKIPPR_TEST_PG_OTHER_CA (an unrelated CA's);
#                          each SETTING is a postgresql.conf line overriding the
#                          defaults below, e.g. 'fsync = on' (wal_level is logical: change data capture needs it)
#   pg_stop                stop the server and delete its files; safe to call
#                          more than once, so use it in an EXIT trap

PG_DIR=""  # temp dir of the running server: data/, server.log, unix socket
PG_BIN=""

pg_bin() {  # prints the newest /usr/lib/postgresql/<version>/bin
  local initdb
  initdb=$(printf '%s\n' /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
  [[ -x $initdb ]] && dirname "$initdb"
}

pg_install() {
  pg_bin >/dev/null && command -v openssl >/dev/null && return 0
  echo "pg_install: installing PostgreSQL and openssl with apt" >&2
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql openssl
}

pg_as() {  # runs a server command as user postgres when root (initdb refuses root)
  if (( EUID == 0 )); then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

pg_running() {
  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null
}

pg_free_port() {  # a port below the ephemeral range with nothing listening on it
  local port
  for _ in {1..100}; do
    port=$((20000 + RANDOM % 12000))
    if ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "pg_free_port: no free port found" >&2
  return 1
}

pg_tls() {  # a throwaway CA, a server certificate it signed for 127.0.0.1 and localhost, and an
  # unrelated CA, in folder $1, so tests can use sslmode verify-full (and see it refuse a wrong CA)
  local dir=$1 ca
  mkdir -p "$dir"
  for ca in ca other-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -days 3 -subj "/CN=Skippr test $ca" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
      -keyout "$dir/$ca.key" -out "$dir/$ca.crt" 2>/dev/null || return 1
  done
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/server.key" \
    -out "$dir/server.csr" 2>/dev/null || return 1
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 3 -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null || return 1
  rm -f "$dir/ca.key" "$dir/other-ca.key" "$dir/server.csr"
  chmod 600 "$dir/server.key"
  if (( EUID == 0 )); then chown postgres: "$dir/server.key" "$dir/server.crt"; fi
}

# shellcheck disable=SC2120  # settings are optional
pg_start() {
  local port started
  [[ -z $PG_DIR ]] || { echo "pg_start: already running in $PG_DIR" >&2; return 1; }
  PG_BIN=$(pg_bin) || { echo "pg_start: PostgreSQL is not installed" >&2; return 1; }
  # Under /tmp, not $TMPDIR: user postgres must reach it and socket paths must stay short.
  PG_DIR=$(mktemp -d /tmp/skippr-pg.XXXXXX)
  if (( EUID == 0 )); then chown postgres: "$PG_DIR"; fi
  port=$(pg_free_port) || return 1

  if ! pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust \
      --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1; then
    cat "$PG_DIR/initdb.log" >&2
    return 1
  fi
  pg_tls "$PG_DIR/ssl" || return 1
  cat >>"$PG_DIR/data/postgresql.conf" <<CONF
ssl = on
ssl_cert_file = '$PG_DIR/ssl/server.crt'
ssl_key_file = '$PG_DIR/ssl/server.key'
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$PG_DIR'
max_prepared_transactions = 64
wal_level = logical
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  printf '%s\n' "$@" >>"$PG_DIR/data/postgresql.conf"

  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -W start >/dev/null || return 1
  started=$SECONDS
  until "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port"; do
    sleep 0.1
    # Give up after 30s, or as soon as the server has died (after a 1s grace
    # period, since `pg_ctl status` needs the pid file the server writes first).
    if (( SECONDS - started > 30 )) || { (( SECONDS - started > 1 )) && ! pg_running; }; then
      echo "pg_start: PostgreSQL did not get ready; server log:" >&2
      cat "$PG_DIR/server.log" >&2
      return 1
    fi
  done

  pg_as "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE skippr LOGIN SUPERUSER PASSWORD 'skippr'" \
    -c "CREATE DATABASE skippr OWNER skippr" || return 1

  export SKIPPR_TEST_PG_HOST=127.0.0.1 SKIPPR_TEST_PG_PORT=$port SKIPPR_TEST_PG_USER=skippr \
    SKIPPR_TEST_PG_PASSWORD=skippr SKIPPR_TEST_PG_DATABASE=skippr SKIPPR_TEST_PG_BIN=$PG_BIN \
    SKIPPR_TEST_PG_CA=$PG_DIR/ssl/ca.crt SKIPPR_TEST_PG_OTHER_CA=$PG_DIR/ssl/other-ca.crt
  echo "pg_start: $("$PG_BIN/postgres" --version) ready on 127.0.0.1:$port" >&2
}

pg_stop() {
  [[ -n $PG_DIR ]] || return 0
  if pg_running; then
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null || true
  fi
  rm -rf "$PG_DIR"
  PG_DIR=""
}
