# shellcheck shell=bash
# record_section HEADING FILE RESULTS: replaces the top-level section "# HEADING" of RESULTS (up
# to the next line starting with "# ") with the contents of FILE, or appends FILE when RESULTS has
# no such section; every other section, hand-written analysis included, is kept as it is.
record_section() {
  local heading=$1 section=$2 results=$3 out
  out=$(mktemp)
  touch "$results"
  awk -v heading="# $heading" -v section="$section" '
    /^# / {
      skipping = ($0 == heading)
      if (skipping && !done) { while ((getline l < section) > 0) print l; print ""; done = 1 }
    }
    !skipping { print }
    END { if (!done) { print ""; while ((getline l < section) > 0) print l } }
  ' "$results" >"$out"
  cp "$out" "$results"
  rm -f "$out"
}
