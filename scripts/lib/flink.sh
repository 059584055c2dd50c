# shellcheck shell=bash
# Shared by scripts/flink-cluster and scripts/flink: a Flink 2.1 standalone cluster run from
# Maven artifacts (the flink-dist archive is not available). Set `root` to the checkout, source
# scripts/lib/jvm-opens.sh and this file, then call flink_init.
#
#   FLINK_CLUSTER_DIR  the cluster's work dir: $SKIPPR_FLINK_CLUSTER_DIR, else target/flink-cluster
#                      conf/ (generated), log/, plugins/, tmp/, checkpoints/, savepoints/, *.pid
#   FLINK_CLASSPATH    the jars of Flink's lib/ folder: flink-cluster/target/cluster-classpath.txt
#                      (set by flink_classpath, which builds the project if needed)
#   FLINK_JOB_JAR      job/target/skippr-job.jar, the jar `flink run` submits

FLINK_JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# shellcheck disable=SC2034  # the variables are used by the scripts that source this file
flink_init() {
  FLINK_CLUSTER_DIR=${SKIPPR_FLINK_CLUSTER_DIR:-$root/target/flink-cluster}
  mkdir -p "$FLINK_CLUSTER_DIR"
  FLINK_CLUSTER_DIR=$(cd "$FLINK_CLUSTER_DIR" && pwd)
  FLINK_CONF=$FLINK_CLUSTER_DIR/conf
  FLINK_LOGS=$FLINK_CLUSTER_DIR/log
  FLINK_JOB_JAR=$root/job/target/skippr-job.jar
}

# Sets FLINK_CLASSPATH; builds the project first when the cluster's class path or the job jar is
# missing, or when SKIPPR_REBUILD=1.
flink_classpath() {
  local log=$root/target/flink-build.log classpath=$root/flink-cluster/target/cluster-classpath.txt
  if [[ ! -f $classpath || ! -f $FLINK_JOB_JAR || ${SKIPPR_REBUILD:-0} == 1 ]]; then
    mkdir -p "$root/target"
    echo "flink: building Skippr (log: $log)" >&2
    if ! (cd "$root" && mvn -B -q -DskipTests -Dspotless.check.skip=true install) >"$log" 2>&1
    then
      echo "flink: build failed; end of $log:" >&2
      tail -n 50 "$log" >&2
      return 1
    fi
  fi
  FLINK_CLASSPATH=$(<"$classpath")
}

# Links the plugins Skippr ships (job/target/plugins/<name>/*.jar: s3-fs-hadoop for
# checkpoints and savepoints on s3://, metrics-prometheus) into the plugin folder DIR, one folder
# each, as a Flink distribution's plugins/ holds them; a folder of that name already there (the
# user's own) is left as it is.
flink_link_plugins() {
  local dir=$1 plugin jar
  for plugin in "$root"/job/target/plugins/*/; do
    [[ -d $plugin ]] || continue
    [[ -e $dir/$(basename "$plugin") ]] && continue
    mkdir -p "$dir/$(basename "$plugin")"
    for jar in "$plugin"*.jar; do
      ln -s "$jar" "$dir/$(basename "$plugin")/"
    done
  done
}

# Runs BashJavaUtils COMMAND ARGS... and prints its result lines, as Flink's bin/config.sh does.
flink_bash_java_utils() {
  local output
  # A short-lived JVM: quick startup matters more than peak speed.
  if ! output=$("$FLINK_JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$FLINK_CLASSPATH" \
      org.apache.flink.runtime.util.bash.BashJavaUtils "$@" 2>&1); then
    echo "flink: BashJavaUtils $1 failed:" >&2
    echo "$output" >&2
    return 1
  fi
  sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' <<<"$output"
}

# Prints the pid in $FLINK_CLUSTER_DIR/NAME.pid if that process is alive and still runs CLASS
# (a recycled pid running something else does not count).
flink_pid() {
  local name=$1 class=$2 pid
  [[ -f $FLINK_CLUSTER_DIR/$name.pid ]] || return 1
  pid=$(<"$FLINK_CLUSTER_DIR/$name.pid")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$class --configDir $FLINK_CONF" \
    || return 1
  echo "$pid"
}

FLINK_JM_CLASS=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
FLINK_TM_CLASS=org.apache.flink.runtime.taskexecutor.TaskManagerRunner

flink_jm_pid() { flink_pid jobmanager "$FLINK_JM_CLASS"; }
flink_tm_pid() { flink_pid taskmanager "$FLINK_TM_CLASS"; }

# The REST endpoint (and web UI) of the generated configuration.
flink_rest_url() {
  local port
  port=$(sed -n 's/^rest\.port: *'"'"'\{0,1\}\([0-9]*\).*/\1/p' "$FLINK_CONF/config.yaml" 2>/dev/null)
  [[ -n $port ]] || return 1
  echo "http://127.0.0.1:$port"
}
