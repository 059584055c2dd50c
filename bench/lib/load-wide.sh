# shellcheck shell=bash
# The wide table of bench/pg-load (issue 17, point 7): bench_wide.wide, a bigint key and 49
# columns of mixed types (int, numeric, text of varying length with NULLs, timestamptz, date,
# boolean, jsonb, uuid, double precision). Sourced by bench/pg-load.
#   make_wide N   bench_wide.wide with N rows (replaced)

wide_columns() {  # prints "name type expression" lines; the expressions use the row number i
  local k
  for k in 1 2 3 4 5 6 7 8; do
    echo "int_$k int (i * $k + $k) % 1000003"
    echo "num_$k numeric(14,2) ((i::bigint * $((k * 7919))) % 100000000) / 100.0"
  done
  for k in 1 2 3 4 5 6 7 8 9 10; do  # from empty to 320 characters, one row in 13 NULL
    echo "txt_$k text CASE WHEN i % 13 = $k THEN NULL ELSE left(repeat(md5((i + $k)::text), 10), (i * $k) % $((k * 32 + 1))) END"
  done
  for k in 1 2 3 4 5 6; do
    echo "ts_$k timestamptz timestamptz '2020-01-01 00:00:00Z' + (i * $k) * interval '1 second' + (i % 1000) * interval '1 microsecond'"
  done
  for k in 1 2 3 4; do
    echo "day_$k date date '2000-01-01' + ((i * $k) % 20000)"
    echo "flag_$k boolean (i + $k) % 3 = 0"
  done
  for k in 1 2 3; do
    echo "doc_$k jsonb jsonb_build_object('id', i, 'k', $k, 'tag', 't' || (i % 97), 'ok', i % 2 = 0)"
    echo "uid_$k uuid md5(i::text || '-$k')::uuid"
    echo "dbl_$k double precision (i * $k) / 7.0"
  done
}

make_wide() {
  local defs=() exprs=() name type expr
  while read -r name type expr; do
    [[ $type == double ]] && { type="double precision"; expr=${expr#precision }; }
    defs+=("\"$name\" $type")
    exprs+=("$expr")
  done < <(wide_columns)
  sql -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS \"bench_wide\" CASCADE;
    CREATE SCHEMA \"bench_wide\";
    CREATE TABLE \"bench_wide\".\"wide\" (\"id\" bigint PRIMARY KEY, $(IFS=,; echo "${defs[*]}"));
    INSERT INTO \"bench_wide\".\"wide\" SELECT i, $(IFS=,; echo "${exprs[*]}")
    FROM generate_series(1, $1) i;"
  sql -c 'VACUUM ANALYZE "bench_wide"."wide"'
}
