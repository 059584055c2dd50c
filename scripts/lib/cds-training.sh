# shellcheck shell=bash
# cds_train ARCHIVE CLASS_PATH LOG: makes a dynamic class-data archive (AppCDS) of the classes
# `skipprd sync --once` loads, by running it over a small CSV file into a folder in a temporary
# directory with -XX:ArchiveClassesAtExit. Expects $JVM_OPENS. On failure it leaves no archive
# and says where the log is: skipprd then starts without one.
cds_train() {
  local archive=$1 class_path=$2 log=$3 work
  work=$(mktemp -d)
  mkdir -p "$work/in" "$(dirname "$log")"
  {
    echo "id,name,amount"
    for i in $(seq 1 100); do echo "$i,n$i,$i.5"; done
  } >"$work/in/a.csv"
  cat >"$work/skippr.yml" <<'YAML'
pipelines:
  p: {data_source: data_sources.shop, data_sink: data_sinks.out}
data_sources:
  shop:
    LocalFile: {path: in/*.csv, stream: orders}
data_sinks:
  out:
    LocalFile: {path: out}
YAML
  echo "skipprd: preparing faster start-up, once per build (log: $log)" >&2
  # shellcheck disable=SC2086  # JVM_OPENS is a list of flags
  if (cd "$work" && SKIPPR_STATE_DIR="$work/state" "${JAVA_HOME:+$JAVA_HOME/bin/}java" $JVM_OPENS \
    -Xmx1g "-XX:ArchiveClassesAtExit=$archive.tmp" -cp "$class_path" io.skippr.cli.Skipprd \
    sync --pipeline p --once) >"$log" 2>&1 && [[ -f $archive.tmp ]]; then
    mv -f "$archive.tmp" "$archive"
  else
    rm -f "$archive.tmp"
    echo "skipprd: could not prepare it; starting without (see $log)" >&2
  fi
  rm -rf "$work"
}
