# shellcheck shell=bash
# Throwaway S3 server for tests: S3Proxy (Maven Central, run as its own process) keeping its
# buckets in a temp folder. Source this file, then:
#   s3_install   fetch the S3Proxy jar with Maven into the cache folder if missing
#   s3_start     start it on a free 127.0.0.1 port with fresh random keys and export
#                SKIPPR_TEST_S3_{ENDPOINT,ACCESS_KEY,SECRET_KEY,REGION}
#   s3_stop      stop it and delete its files; safe to call more than once, so use it in an
#                EXIT trap

S3PROXY_VERSION=4.1.0
S3_CACHE=${SKIPPR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skippr}
S3_JAR=$S3_CACHE/s3proxy-$S3PROXY_VERSION-jar-with-dependencies.jar
S3_DIR=""  # temp dir of the running server: properties, buckets, log, pid

s3_install() {
  [[ -s $S3_JAR ]] && return 0
  echo "s3_install: fetching S3Proxy $S3PROXY_VERSION with Maven" >&2
  mkdir -p "$S3_CACHE"
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="org.gaul:s3proxy:$S3PROXY_VERSION:jar:jar-with-dependencies" \
    -DoutputDirectory="$S3_CACHE"
}

s3_free_port() {  # a port below the ephemeral range with nothing listening on it
  local port
  for _ in {1..100}; do
    port=$((20000 + RANDOM % 12000))
    if ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "s3_free_port: no free port found" >&2
  return 1
}

s3_answers() {  # true when the server on port $1 answers HTTP (403 to an anonymous GET is fine)
  local answer
  # shellcheck disable=SC2016  # $1 expands in the inner shell
  answer=$(timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" \
    && printf "GET / HTTP/1.0\r\n\r\n" >&3 && head -c 12 <&3' _ "$1" 2>/dev/null) || return 1
  [[ $answer == HTTP/1.1\ * ]]
}

s3_start() {
  local port key secret started pid
  [[ -z $S3_DIR ]] || { echo "s3_start: already running in $S3_DIR" >&2; return 1; }
  [[ -s $S3_JAR ]] || { echo "s3_start: S3Proxy is not installed (s3_install)" >&2; return 1; }
  S3_DIR=$(mktemp -d /tmp/skippr-s3.XXXXXX)
  port=$(s3_free_port) || return 1
  key=skippr-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
  secret=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
  mkdir -p "$S3_DIR/buckets"
  (umask 077 && cat >"$S3_DIR/s3proxy.conf" <<CONF
s3proxy.endpoint=http://127.0.0.1:$port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$key
s3proxy.credential=$secret
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$S3_DIR/buckets
CONF
  )
  # a small, quickly started JVM: a test server, not a throughput one
  LOG_LEVEL=warn java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx512m \
    -jar "$S3_JAR" --properties "$S3_DIR/s3proxy.conf" >"$S3_DIR/server.log" 2>&1 &
  pid=$!
  echo "$pid" >"$S3_DIR/server.pid"
  started=$SECONDS
  until s3_answers "$port"; do
    if (( SECONDS - started > 30 )) || ! kill -0 "$pid" 2>/dev/null; then
      echo "s3_start: S3Proxy did not get ready; server log:" >&2
      cat "$S3_DIR/server.log" >&2
      s3_stop
      return 1
    fi
    sleep 0.1
  done

  export SKIPPR_TEST_S3_ENDPOINT=http://127.0.0.1:$port SKIPPR_TEST_S3_ACCESS_KEY=$key \
    SKIPPR_TEST_S3_SECRET_KEY=$secret SKIPPR_TEST_S3_REGION=us-east-1
  echo "s3_start: S3Proxy $S3PROXY_VERSION ready on 127.0.0.1:$port" \
    "after $((SECONDS - started))s" >&2
}

s3_stop() {
  local pid
  [[ -n $S3_DIR ]] || return 0
  pid=$(cat "$S3_DIR/server.pid" 2>/dev/null || true)
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true  # reaps it when this shell started it
    for _ in {1..100}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$S3_DIR"
  S3_DIR=""
  unset SKIPPR_TEST_S3_ENDPOINT SKIPPR_TEST_S3_ACCESS_KEY SKIPPR_TEST_S3_SECRET_KEY \
    SKIPPR_TEST_S3_REGION
}
