# shellcheck shell=bash disable=SC2154  # work and root are bench/pg-load's
# Continuous latency of bench/pg-load (issue 17, target continuous_latency_p99_ms). A continuous
# `skipprd sync` (no --once) copies bench_lat.feed, cursor column id, into PostgreSQL while a
# procedure inserts LATENCY_RATE rows a second (default 5,000, in commits every 50 ms) for
# LATENCY_SECONDS. The server runs with track_commit_timestamp = on, so each row's latency is
# exact, with no polling: the commit time of the transaction that made it visible in the
# destination minus the commit time of the one that inserted it in the source (both
# pg_xact_commit_timestamp of the row's xmin, on the same server and clock). Sourced by
# bench/pg-load, whose sql, config and $work it uses.
#   latency_figures   prints continuous_latency_p50_ms, continuous_latency_p99_ms,
#                     continuous_latency_max_ms, continuous_rows, continuous_insert_rate_per_s,
#                     checkpoint_interval_ms
# CHECKPOINT_INTERVAL (e.g. "2 s") runs skipprd with a copy of flink-conf/ whose
# execution.checkpointing.interval is that; unset, the project's own (10 s).

LATENCY_PID=""

latency_stop() {  # stops the continuous run, if any; safe in an EXIT trap
  [[ -n $LATENCY_PID ]] || return 0
  kill "$LATENCY_PID" 2>/dev/null || true
  wait "$LATENCY_PID" 2>/dev/null || true
  LATENCY_PID=""
}

checkpoint_interval_ms() {  # FILE: execution.checkpointing.interval of a Flink config.yaml, in ms
  awk -F': *' '$1 == "execution.checkpointing.interval" {
    n = $2 + 0; unit = $2; sub(/^[0-9.]+ */, "", unit)
    f = unit ~ /^(ms|milli)/ ? 1 : unit ~ /^(min|m$)/ ? 60000 : unit ~ /^h/ ? 3600000 : 1000
    printf "%d\n", n * f }' "$1"
}

latency_wait() {  # latency_wait SECONDS QUERY: until QUERY prints t, or fails after SECONDS
  local deadline=$((SECONDS + $1))
  until [[ $(sql -tA -c "$2" 2>/dev/null) == t ]]; do
    if (( SECONDS > deadline )) || ! kill -0 "$LATENCY_PID" 2>/dev/null; then
      echo "bench: the continuous run did not catch up (query: $2); end of its log:" >&2
      tail -n 20 "$work/latency.log" >&2
      return 1
    fi
    sleep 0.5
  done
}

latency_conf_dir() {  # the Flink config folder of a continuous run: the project's, or a copy of
  # it with CHECKPOINT_INTERVAL as execution.checkpointing.interval when that is set
  local conf_dir=$root/flink-conf
  if [[ -n ${CHECKPOINT_INTERVAL:-} ]]; then
    conf_dir=$work/flink-conf
    rm -rf "$conf_dir"; cp -r "$root/flink-conf" "$conf_dir"
    sed -i "s/^execution.checkpointing.interval:.*/execution.checkpointing.interval: $CHECKPOINT_INTERVAL/" \
      "$conf_dir/config.yaml"
  fi
  echo "$conf_dir"
}

latency_figures() {
  local conf_dir file seed=1000 rate=${LATENCY_RATE:-5000} seconds=${LATENCY_SECONDS:-60}
  conf_dir=$(latency_conf_dir)
  sql -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS \"bench_lat\" CASCADE;
    DROP SCHEMA IF EXISTS \"bench_dst\" CASCADE; CREATE SCHEMA \"bench_lat\";
    CREATE TABLE \"bench_lat\".\"feed\" (\"id\" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      \"payload\" text, \"amount\" numeric(12,2), \"created_at\" timestamptz DEFAULT clock_timestamp());
    INSERT INTO \"bench_lat\".\"feed\" (\"payload\", \"amount\")
      SELECT md5(g::text), g % 1000 / 10.0 FROM generate_series(1, $seed) g;
    CREATE PROCEDURE \"bench_lat\".\"feed\"(rate int, seconds int, tick_ms int) LANGUAGE plpgsql AS \$\$
    DECLARE
      t0 timestamptz := clock_timestamp();
      per int := rate * tick_ms / 1000;
    BEGIN
      FOR k IN 1 .. seconds * 1000 / tick_ms LOOP
        INSERT INTO \"bench_lat\".\"feed\" (\"payload\", \"amount\")
          SELECT md5(g::text), g % 1000 / 10.0 FROM generate_series(1, per) g;
        COMMIT;
        PERFORM pg_sleep(greatest(0, extract(epoch FROM
          t0 + k * tick_ms * interval '1 millisecond' - clock_timestamp())));
      END LOOP;
    END \$\$;"
  file=$(SRC_SCHEMA=bench_lat CURSOR=id config latency)
  rm -rf "$work/state-latency"
  SKIPPR_FLINK_CONF_DIR=$conf_dir SKIPPR_STATE_DIR=$work/state-latency \
    "$root/scripts/skipprd" sync --config "$file" --pipeline bench >"$work/latency.log" 2>&1 &
  LATENCY_PID=$!
  # measured from the first row inserted after the run has copied the table once
  latency_wait 300 "SELECT count(*) = $seed FROM \"bench_dst\".\"feed\"" || { latency_stop; return 1; }
  sql -c "CALL \"bench_lat\".\"feed\"($rate, $seconds, 50)"
  latency_wait $((seconds + 120)) "SELECT (SELECT count(*) FROM \"bench_dst\".\"feed\")
    = (SELECT count(*) FROM \"bench_lat\".\"feed\")" || { latency_stop; return 1; }
  latency_stop
  sql -tA -F ' ' -c "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY ms),
      percentile_disc(0.99) WITHIN GROUP (ORDER BY ms), max(ms), count(*),
      round(count(*) / extract(epoch FROM max(s_at) - min(s_at)))
    FROM (SELECT round(1000 * extract(epoch FROM pg_xact_commit_timestamp(d.xmin)
                                               - pg_xact_commit_timestamp(s.xmin))) AS ms,
                 pg_xact_commit_timestamp(s.xmin) AS s_at
          FROM \"bench_lat\".\"feed\" s JOIN \"bench_dst\".\"feed\" d USING (\"id\")
          WHERE s.\"id\" > $seed) x" >"$work/latency.out"
  read -r p50 p99 max rows per_s <"$work/latency.out"
  echo "continuous_latency_p50_ms: $p50"
  echo "continuous_latency_p99_ms: $p99"
  echo "continuous_latency_max_ms: $max"
  echo "continuous_rows: $rows"
  echo "continuous_insert_rate_per_s: $per_s"
  echo "checkpoint_interval_ms: $(checkpoint_interval_ms "$conf_dir/config.yaml")"
}
