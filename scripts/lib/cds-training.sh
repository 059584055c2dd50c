# shellcheck shell=bash
# cds_train ARCHIVE CLASS_PATH LOG: makes a dynamic class-data archive (AppCDS) of the classes
# `skipprd sync --once` loads, by running it over a small CSV file into a folder in a temporary
# directory with -XX:ArchiveClassesAtExit, isolated from the user's Flink configuration. Expects
# $JVM_OPENS. One training at a time (flock on ARCHIVE.lock; a second skipprd waits, then finds
# the archive made). On failure it leaves ARCHIVE.failed instead, so later starts do not train
# again until the next build, and says where the log is: skipprd then starts without an archive.
# Never fails the caller.
cds_train() {
  local archive=$1 class_path=$2 log=$3 since work tmp
  since=$(mktemp) || return 0
  (
    trap 'rm -rf "$since" "${work:-}" "${tmp:-}"' EXIT
    flock 9 || exit 0
    # another skipprd may have made it, or failed to, while this one waited
    [[ $archive -nt $since || $archive.failed -nt $since ]] && exit 0
    work=$(mktemp -d) || exit 0
    tmp=$(mktemp "$archive.XXXXXX") || exit 0
    mkdir -p "$work/in" "$(dirname "$log")" || exit 0
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
    # shellcheck disable=SC2086  # JVM_OPENS and SKIPPR_JAVA_OPTS are lists of flags
    if (cd "$work" && env -u SKIPPR_FLINK_CONF_DIR -u SKIPPR_CONFIG SKIPPR_STATE_DIR="$work/state" \
      "${JAVA_HOME:+$JAVA_HOME/bin/}java" $JVM_OPENS ${SKIPPR_JAVA_OPTS--Xmx1g} \
      "-XX:ArchiveClassesAtExit=$tmp" -cp "$class_path" io.skippr.cli.Skipprd \
      sync --pipeline p --once) >"$log" 2>&1 && [[ -s $tmp ]] && mv -f "$tmp" "$archive"; then
      rm -f "$archive.failed"
    else
      touch "$archive.failed"
      echo "skipprd: could not prepare it; starting without, until the next build (see $log)" >&2
    fi
  ) 9>"$archive.lock" || true
}
