# shellcheck shell=bash disable=SC2154  # work and root are bench/pg-load's
# Peers of bench/pg-load (issue 17, point 5), on the same rows (bench_src.src) and server. Sourced
# by bench/pg-load, whose sql, now, elapsed, median, ratio, $work, $root and $RUNS it uses.
#   peers_figures COPY_SECONDS   prints `name: value` lines: pgloader_seconds,
#                                pgloader_ratio_vs_copy, flink_jdbc_seconds,
#                                flink_jdbc_ratio_vs_copy (medians of RUNS), or
#                                `...: unavailable (reason)`
# PGLOADER=0 or FLINK_JDBC=0 leaves a peer out; FLINK_JDBC_REWRITE=1 also times the Flink job with
# pgjdbc's reWriteBatchedInserts=true (flink_jdbc_rewritten_seconds), which a default job lacks.

pgloader_install() {  # Debian's pgloader, as pg_install installs PostgreSQL
  command -v pgloader >/dev/null && return 0
  echo "bench: installing pgloader with apt" >&2
  apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends pgloader >&2
}

pgloader_run() {  # seconds for pgloader copying bench_src.src into a new database, with its defaults
  # but for 10,000-row prefetch and batches: its default 100,000 exhausts the 1 GiB heap of
  # Debian's build ("Heap exhausted, game over") at 5M rows
  local url="postgresql://skippr:${PGPASSWORD}@127.0.0.1:$SKIPPR_TEST_PG_PORT" t0 t1
  sql -c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS "bench_pgloader"' -c 'CREATE DATABASE "bench_pgloader"'
  cat >"$work/pgloader.load" <<EOF_LOAD
LOAD DATABASE
  FROM $url/skippr?sslmode=disable
  INTO $url/bench_pgloader?sslmode=disable
  WITH prefetch rows = 10000, batch rows = 10000
  INCLUDING ONLY TABLE NAMES MATCHING 'src' IN SCHEMA 'bench_src';
EOF_LOAD
  t0=$(now)
  if ! pgloader --no-ssl-cert-verification "$work/pgloader.load" >"$work/pgloader.log" 2>&1; then
    tail -n 20 "$work/pgloader.log" >&2
    return 1
  fi
  t1=$(now)
  # pgloader logs a failed table and goes on: count what arrived
  local want got
  want=$(sql -tA -c 'SELECT count(*) FROM "bench_src"."src"')
  got=$(sql -d bench_pgloader -tA -c 'SELECT count(*) FROM "bench_src"."src"')
  if [[ $got != "$want" ]]; then
    echo "bench: pgloader loaded $got of $want rows; end of its log:" >&2
    tail -n 20 "$work/pgloader.log" >&2
    return 1
  fi
  elapsed "$t0" "$t1"
}

flink_jdbc_build() {  # builds bench/flink-jdbc-peer once (offline when ~/.m2 has what it needs)
  local dir=$root/bench/flink-jdbc-peer
  [[ -f $dir/target/classpath.txt && -z $(find "$dir/src" "$dir/pom.xml" -newer "$dir/target/classpath.txt" -print -quit) ]] && return 0
  (cd "$dir" && { mvn -B -q -o package || mvn -B -q package; }) >"$work/flink-jdbc-build.log" 2>&1 || {
    tail -n 30 "$work/flink-jdbc-build.log" >&2
    return 1
  }
}

flink_jdbc_run() {  # flink_jdbc_run [URL_OPTIONS]: seconds for the plain Flink JDBC job
  local dir=$root/bench/flink-jdbc-peer max parallelism t0 t1 got
  sql -c 'SET client_min_messages = warning; DROP SCHEMA IF EXISTS "bench_flink" CASCADE;
    CREATE SCHEMA "bench_flink"; CREATE TABLE "bench_flink"."dst" (LIKE "bench_src"."src");'
  max=$(sql -tA -c 'SELECT coalesce(max("id"), 1) FROM "bench_src"."src"')
  # as Skippr's runs: parallelism.default of the project's Flink configuration
  parallelism=$(awk -F': *' '$1 == "parallelism.default" { print $2 }' "$root/flink-conf/config.yaml")
  # shellcheck source-path=SCRIPTDIR source=../../scripts/lib/jvm-opens.sh
  source "$root/scripts/lib/jvm-opens.sh"
  t0=$(now)
  # shellcheck disable=SC2086  # JVM_OPENS is a list of flags
  if ! java $JVM_OPENS -Xmx1g -cp "$dir/target/classes:$(cat "$dir/target/classpath.txt")" \
      io.skippr.bench.FlinkJdbcPeer \
      "jdbc:postgresql://127.0.0.1:$SKIPPR_TEST_PG_PORT/skippr?sslmode=disable${1:-}" skippr \
      "$PGPASSWORD" '"bench_flink"."dst"' "${parallelism:-2}" "$max" >"$work/flink-jdbc.log" 2>&1; then
    tail -n 20 "$work/flink-jdbc.log" >&2
    return 1
  fi
  t1=$(now)
  got=$(sql -tA -c 'SELECT count(*) FROM "bench_flink"."dst"')
  if [[ $got != "$(sql -tA -c 'SELECT count(*) FROM "bench_src"."src"')" ]]; then
    echo "bench: the Flink JDBC job loaded $got rows, not the source's" >&2
    return 1
  fi
  elapsed "$t0" "$t1"
}

peer_median() {  # peer_median FUNCTION [ARG]: median seconds of RUNS runs, or fails
  local times=() t
  for _ in $(seq "$RUNS"); do
    t=$("$@") || return 1
    times+=("$t")
  done
  printf '%s\n' "${times[@]}" | median
}

peers_figures() {
  local copy=$1 s
  if [[ ${PGLOADER:-1} == 1 ]]; then
    if ! pgloader_install; then
      echo "pgloader_seconds: unavailable (apt-get install pgloader failed)"
    elif s=$(peer_median pgloader_run); then
      # shellcheck disable=SC2016  # ${Version} is dpkg-query's field, not a shell variable
      echo "pgloader_version: $(dpkg-query -W -f '${Version}' pgloader 2>/dev/null || echo unknown)"
      echo "pgloader_seconds: $s"
      echo "pgloader_ratio_vs_copy: $(ratio "$s" "$copy")"
    else
      echo "pgloader_seconds: unavailable (its run failed, see above)"
    fi
  fi
  if [[ ${FLINK_JDBC:-1} == 1 ]]; then
    if ! flink_jdbc_build; then
      echo "flink_jdbc_seconds: unavailable (bench/flink-jdbc-peer did not build, see above)"
    elif s=$(peer_median flink_jdbc_run); then
      echo "flink_jdbc_seconds: $s"
      echo "flink_jdbc_ratio_vs_copy: $(ratio "$s" "$copy")"
      if [[ ${FLINK_JDBC_REWRITE:-0} == 1 ]] && s=$(peer_median flink_jdbc_run '&reWriteBatchedInserts=true'); then
        echo "flink_jdbc_rewritten_seconds: $s"
        echo "flink_jdbc_rewritten_ratio_vs_copy: $(ratio "$s" "$copy")"
      fi
    else
      echo "flink_jdbc_seconds: unavailable (its run failed, see above)"
    fi
  fi
}
