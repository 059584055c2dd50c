# The checks of bench/chaos, apart so that bench/chaos-checks can show each one catches what it
# is for. The caller defines sql (psql with its connection), value (one value of a query),
# with_note ("note" once the source has that column, else empty), cdc_slot (chaos_cdc's
# replication slot) and work (the folder whose
# out/items holds the LocalFile sink's JSONL files, in/ the JSONL files the file writer writes and
# lines_out/lines those of the JSONL-file pipeline's sink).
# shellcheck shell=bash disable=SC2154

# A row's checksum: md5 of its values' text, each cast to the source column's type.
row_hash() {  # row_hash ID PAYLOAD AMOUNT VERSION UPDATED_AT [NOTE]: the SQL expression
  local note=${6:+, ($6)::text}
  echo "md5(ROW(($1)::bigint, ($2)::text, ($3)::numeric(12,2), ($4)::int, ($5)::timestamptz$note)::text)"
}

source_rows() {  # source_rows [TABLE]: chaos_src.items by default
  echo "SELECT id, $(row_hash id payload amount version updated_at "$with_note") AS h
    FROM ${1:-chaos_src.items}"
}

# A merge sink's table DESTINATION against source table SOURCE: prints "missing stale duplicated
# extra". A key deleted at the source and still held is extra.
check_merge() {  # check_merge SOURCE DESTINATION
  if [[ $(value "SELECT to_regclass('$2') IS NOT NULL") != t ]]; then
    value "SELECT count(*) || ' 0 0 0' FROM $1"
    return
  fi
  value "WITH s AS ($(source_rows "$1")),
    d AS (SELECT id, $(row_hash id payload amount version updated_at "$with_note") AS h
      FROM $2)
    SELECT (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.id = s.id))
      || ' ' || (SELECT count(*) FROM s JOIN d USING (id) WHERE s.h <> d.h)
      || ' ' || (SELECT count(*) - count(DISTINCT id) FROM d)
      || ' ' || (SELECT count(*) FROM d WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.id = d.id))"
}

# Postgres sink (merge): prints "missing stale duplicated extra".
check_pg() { check_merge chaos_src.items chaos_dst.items; }

# The change data capture pipeline's Postgres sink (merge, deletes applied): the same.
check_cdc() { check_merge chaos_src.cdc_items chaos_cdc.cdc_items; }

# An append sink's rows, as a query of (id, version, payload, amount, updated_at, sid, h): prints
# "missing stale duplicated extra rows". Missing and stale judge the newest version per key
# against the source; duplicated counts versions (id, version) and _skippr_ids held twice; extra
# counts rows that are no version the writer wrote (chaos_src.history) or whose values differ.
check_append() {
  value "WITH s AS ($(source_rows)), f AS ($1),
    newest AS (SELECT DISTINCT ON (id) id, h FROM f ORDER BY id, version DESC)
    SELECT (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM newest n WHERE n.id = s.id))
      || ' ' || (SELECT count(*) FROM s JOIN newest n USING (id) WHERE s.h <> n.h)
      || ' ' || ((SELECT count(*) - count(DISTINCT (id, version)) FROM f)
                 + (SELECT count(*) - count(DISTINCT sid) FROM f))
      || ' ' || (SELECT count(*) FROM f WHERE NOT EXISTS (SELECT 1 FROM chaos_src.history v
          WHERE v.id = f.id AND v.version = f.version
            AND v.payload IS NOT DISTINCT FROM f.payload AND v.amount = f.amount
            AND v.updated_at = f.updated_at))
      || ' ' || (SELECT count(*) FROM f)"
}

# LocalFile sink: loads the JSONL files under their final names (not .skippr-staging, not
# _skippr) into chaos_chk.file_rows; prints what check_append prints.
check_files() {
  local files=()
  if [[ -d $work/out/items ]]; then
    mapfile -t files < <(find "$work/out/items" -maxdepth 1 -type f -name '*.jsonl' | sort)
  fi
  sql -c "SET client_min_messages = warning; CREATE SCHEMA IF NOT EXISTS chaos_chk;
    DROP TABLE IF EXISTS chaos_chk.file_rows; CREATE TABLE chaos_chk.file_rows (doc jsonb)"
  if (( ${#files[@]} > 0 )); then
    # CSV with control characters as quote and delimiter: each line is one jsonb value as is.
    cat "${files[@]}" | sql -c "COPY chaos_chk.file_rows (doc) FROM STDIN
      (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')"
  fi
  local note=""
  [[ -z $with_note ]] || note="doc->>'note'"
  check_append "SELECT (doc->>'id')::bigint AS id, (doc->>'version')::int AS version,
      doc->>'payload' AS payload, (doc->>'amount')::numeric(12,2) AS amount,
      (doc->>'updated_at')::timestamptz AS updated_at, doc->>'_skippr_id' AS sid,
      $(row_hash "doc->>'id'" "doc->>'payload'" "doc->>'amount'" "doc->>'version'" \
        "doc->>'updated_at'" "$note") AS h
    FROM chaos_chk.file_rows"
}

# Postgres append sink: prints what check_append prints.
check_app() {
  if [[ $(value "SELECT to_regclass('chaos_app.items') IS NOT NULL") != t ]]; then
    value "SELECT count(*) || ' 0 0 0 0' FROM chaos_src.items"
    return
  fi
  check_append "SELECT id, version, payload, amount, updated_at, _skippr_id AS sid,
      $(row_hash id payload amount version updated_at "$with_note") AS h FROM chaos_app.items"
}


# Loads every line of the JSONL files FILES... into table chaos_chk.$1 (doc jsonb).
load_lines() {  # load_lines TABLE FILE...
  local table=$1
  shift
  sql -c "SET client_min_messages = warning; CREATE SCHEMA IF NOT EXISTS chaos_chk;
    DROP TABLE IF EXISTS chaos_chk.$table; CREATE TABLE chaos_chk.$table (doc jsonb)"
  if (( $# > 0 )); then
    cat "$@" | sql -c "COPY chaos_chk.$table (doc) FROM STDIN
      (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')"
  fi
}

# The JSONL-file pipeline: the lines the file writer wrote ($work/in/*.jsonl, each {"seq", "p"})
# against the LocalFile sink's files ($work/lines_out/lines/*.jsonl, final names only), line by
# line: prints "missing stale duplicated extra rows". Missing: a written seq that is not there;
# stale: a seq held with another "p"; duplicated: seqs and _skippr_ids held twice; extra: a seq
# nobody wrote.
check_lines() {
  local written=() held=()
  mapfile -t written < <(find "$work/in" -maxdepth 1 -type f -name '*.jsonl' | sort)
  if [[ -d $work/lines_out/lines ]]; then
    mapfile -t held < <(find "$work/lines_out/lines" -maxdepth 1 -type f -name '*.jsonl' | sort)
  fi
  load_lines lines_src "${written[@]}"
  load_lines lines_dst "${held[@]}"
  value "WITH s AS (SELECT (doc->>'seq')::bigint AS seq, doc->>'p' AS p FROM chaos_chk.lines_src),
    d AS (SELECT (doc->>'seq')::bigint AS seq, doc->>'p' AS p, doc->>'_skippr_id' AS sid
      FROM chaos_chk.lines_dst)
    SELECT (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.seq = s.seq))
      || ' ' || (SELECT count(*) FROM d JOIN s USING (seq) WHERE d.p IS DISTINCT FROM s.p)
      || ' ' || ((SELECT count(*) - count(DISTINCT seq) FROM d)
                 + (SELECT count(*) - count(DISTINCT sid) FROM d))
      || ' ' || (SELECT count(*) FROM d WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.seq = d.seq))
      || ' ' || (SELECT count(*) FROM d)"
}

# chaos_cdc's slot's confirmed_flush_lsn against the highest CDC position of the slot committed
# in chaos_cdc._skippr_commits, read in that order (committed positions only grow, so a commit
# made after the slot was read cannot make a sample fail): prints "CONFIRMED COMMITTED", or
# nothing before the slot exists or a position was committed.
cdc_lsns() {
  local confirmed committed
  confirmed=$(value "SELECT confirmed_flush_lsn FROM pg_replication_slots
    WHERE slot_name = '$cdc_slot'")
  [[ -n $confirmed ]] || return 0
  [[ $(value "SELECT to_regclass('chaos_cdc._skippr_commits') IS NOT NULL") == t ]] || return 0
  committed=$(value "SELECT max(pg_lsn(substr(m[1], 1, 8) || '/' || substr(m[1], 9, 8)))
    FROM chaos_cdc._skippr_commits c,
      regexp_matches(c.positions, 'cdc $cdc_slot ([0-9A-F]{16})', 'g') m")
  [[ -z $committed ]] || echo "$confirmed $committed"
}

lsn_number() { echo $(( (16#${1%/*} << 32) | 16#${1#*/} )); }  # X/Y -> a number

# Whether the slot confirmed past what the destination committed.
lsn_past() { (( $(lsn_number "$1") > $(lsn_number "$2") )); }  # lsn_past CONFIRMED COMMITTED
