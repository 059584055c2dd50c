# shellcheck shell=bash
# The narrow table of bench/pg-load and bench/verify: bench_src.src, a bigint key, an int, a
# numeric, a text and a timestamptz. Needs the caller's `sql` (psql into the source database).
#   make_source N   bench_src.src with N rows (replaced), vacuumed and analysed

make_source() {
  sql -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS bench_src CASCADE; CREATE SCHEMA bench_src;
    CREATE TABLE bench_src.src (id bigint PRIMARY KEY, customer_id int, amount numeric(12,2),
      status text, created_at timestamptz);
    INSERT INTO bench_src.src SELECT i, i % 10007, (i % 100000) / 100.0,
      (ARRAY['new','paid','shipped','refunded'])[1 + i % 4],
      timestamptz '2026-01-01 00:00:00Z' + i * interval '1 second'
    FROM generate_series(1, $1) i;"
  sql -c "VACUUM ANALYZE bench_src.src"
}
