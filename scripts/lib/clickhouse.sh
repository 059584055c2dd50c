# shellcheck shell=bash
# Throwaway ClickHouse server for tests. Source this file, then:
#   ch_install   install Debian's `clickhouse-server` and `clickhouse-client` if missing
#   ch_start     start a server on free 127.0.0.1 ports and export
#                SKIPPR_TEST_CH_{HOST,PORT,USER,PASSWORD} (PORT is the HTTP interface)
#   ch_stop      stop the server and delete its files; safe to call more than once,
#                so use it in an EXIT trap

CH_DIR=""  # temp dir of the running server: config, data, logs, pid file
CH_SERVER=/usr/sbin/clickhouse-server

ch_install() {
  [[ -x $CH_SERVER ]] && command -v clickhouse-client >/dev/null && return 0
  echo "ch_install: installing ClickHouse with apt" >&2
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    clickhouse-server clickhouse-client
}

ch_as() {  # runs a server command as user clickhouse when root and that user exists
  if (( EUID == 0 )) && id clickhouse >/dev/null 2>&1; then
    (cd / && runuser -u clickhouse -- "$@")
  else
    "$@"
  fi
}

ch_free_port() {  # a port below the ephemeral range with nothing listening on it
  local port
  for _ in {1..100}; do
    port=$((20000 + RANDOM % 12000))
    if [[ " $* " != *" $port "* ]] && ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "ch_free_port: no free port found" >&2
  return 1
}

ch_ping() {  # true when GET /ping on HTTP port $1 answers "Ok."
  local answer
  # shellcheck disable=SC2016  # $1 expands in the inner shell
  answer=$(timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" \
    && printf "GET /ping HTTP/1.0\r\n\r\n" >&3 && cat <&3' _ "$1" 2>/dev/null) || return 1
  [[ $answer == *$'\r\n\r\nOk.'* ]]
}

ch_alive() {  # true while process $1 runs (a zombie waiting to be reaped does not count)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [[ $stat != *") Z "* ]]
}

ch_start() {
  local http tcp started pid
  [[ -z $CH_DIR ]] || { echo "ch_start: already running in $CH_DIR" >&2; return 1; }
  [[ -x $CH_SERVER ]] || { echo "ch_start: ClickHouse is not installed" >&2; return 1; }
  CH_DIR=$(mktemp -d /tmp/skippr-ch.XXXXXX)
  http=$(ch_free_port) && tcp=$(ch_free_port "$http") || return 1

  # The packaged config and users, with an override: private paths, loopback only, free
  # ports, no interserver port (no replication here).
  mkdir -p "$CH_DIR/conf/config.d" "$CH_DIR/data" "$CH_DIR/log"
  cp /etc/clickhouse-server/config.xml /etc/clickhouse-server/users.xml "$CH_DIR/conf/"
  cat >"$CH_DIR/conf/config.d/skippr.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>information</level>
    <log>$CH_DIR/log/server.log</log>
    <errorlog>$CH_DIR/log/server.err.log</errorlog>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <interserver_http_port remove="1"/>
  <path>$CH_DIR/data/</path>
  <tmp_path>$CH_DIR/data/tmp/</tmp_path>
  <user_files_path>$CH_DIR/data/user_files/</user_files_path>
  <format_schema_path>$CH_DIR/data/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
</yandex>
XML
  if (( EUID == 0 )) && id clickhouse >/dev/null 2>&1; then chown -R clickhouse: "$CH_DIR"; fi

  ch_as "$CH_SERVER" --config-file="$CH_DIR/conf/config.xml" --pid-file="$CH_DIR/server.pid" \
    --daemon >"$CH_DIR/start.log" 2>&1 || { cat "$CH_DIR/start.log" >&2; return 1; }
  started=$SECONDS
  until ch_ping "$http"; do
    pid=$(cat "$CH_DIR/server.pid" 2>/dev/null || true)
    # Give up after 30s, or once the server died (its pid file is written at once).
    if (( SECONDS - started > 30 )) || { [[ -n $pid ]] && ! ch_alive "$pid"; } \
        || { [[ -z $pid ]] && (( SECONDS - started > 5 )); }; then
      echo "ch_start: ClickHouse did not get ready; server log:" >&2
      cat "$CH_DIR"/start.log "$CH_DIR"/log/*.log >&2
      return 1
    fi
    sleep 0.1
  done

  export SKIPPR_TEST_CH_HOST=127.0.0.1 SKIPPR_TEST_CH_PORT=$http SKIPPR_TEST_CH_USER=default \
    SKIPPR_TEST_CH_PASSWORD=
  echo "ch_start: ClickHouse $(clickhouse-client --version 2>/dev/null | grep -Eo '[0-9]+(\.[0-9]+)+' \
    | head -n 1) ready on 127.0.0.1:$http (HTTP), :$tcp (native)" >&2
}

ch_stop() {
  local pid
  [[ -n $CH_DIR ]] || return 0
  pid=$(cat "$CH_DIR/server.pid" 2>/dev/null || true)
  if [[ -n $pid ]] && ch_alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
    while ch_alive "$pid"; do sleep 0.05; done
  fi
  rm -rf "$CH_DIR"
  CH_DIR=""
}
