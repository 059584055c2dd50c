# shellcheck shell=bash
# Throwaway Azurite (Azure Blob Storage emulator) for tests. Source this file, then:
#   az_install   install azurite@$AZ_VERSION from npm into $AZ_HOME if missing (needs Node 20)
#   az_start     start its blob service in memory on a free 127.0.0.1 port and export
#                SKIPPR_TEST_AZURE_{ENDPOINT,ACCOUNT,KEY}; it creates no container (tests do)
#   az_stop      stop the server and delete its files; safe to call more than once,
#                so use it in an EXIT trap

AZ_VERSION=3.35.0
AZ_HOME=${AZ_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/skippr/azurite}
AZ_DIR=""  # temp dir of the running server: its working directory and log
AZ_PID=""
# Azurite's well-known development account and its published key (not a secret).
AZ_ACCOUNT=devstoreaccount1
AZ_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

az_bin() {
  echo "$AZ_HOME/node_modules/.bin/azurite-blob"
}

az_install() {
  [[ -x $(az_bin) ]] && return 0
  if ! command -v npm >/dev/null; then
    echo "az_install: installing Node.js and npm with apt" >&2
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm
  fi
  echo "az_install: installing azurite@$AZ_VERSION with npm into $AZ_HOME" >&2
  mkdir -p "$AZ_HOME"
  npm install --prefix "$AZ_HOME" --no-audit --no-fund --loglevel=error "azurite@$AZ_VERSION" >&2
}

az_free_port() {  # a port below the ephemeral range with nothing listening on it
  local port
  for _ in {1..100}; do
    port=$((20000 + RANDOM % 12000))
    if ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "az_free_port: no free port found" >&2
  return 1
}

az_alive() {  # true while process $1 runs (a zombie waiting to be reaped does not count)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [[ $stat != *") Z "* ]]
}

az_start() {
  local port started
  [[ -z $AZ_DIR ]] || { echo "az_start: already running in $AZ_DIR" >&2; return 1; }
  [[ -x $(az_bin) ]] || { echo "az_start: Azurite is not installed (run az_install)" >&2; return 1; }
  AZ_DIR=$(mktemp -d /tmp/skippr-azurite.XXXXXX)
  port=$(az_free_port) || return 1

  # One node process (the bin is a node script), so its pid is the server's.
  # In memory: nothing on disk; run in AZ_DIR all the same, should it write anything.
  (cd "$AZ_DIR" && AZURITE_ACCOUNTS="$AZ_ACCOUNT:$AZ_KEY" exec "$(az_bin)" \
    --blobHost 127.0.0.1 --blobPort "$port" --inMemoryPersistence --skipApiVersionCheck \
    --disableTelemetry --silent >"$AZ_DIR/server.log" 2>&1 </dev/null) &
  AZ_PID=$!
  disown "$AZ_PID"  # no "Killed" job report from az_stop
  started=$SECONDS
  until (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    if (( SECONDS - started > 30 )) || ! az_alive "$AZ_PID"; then
      echo "az_start: Azurite did not get ready; server log:" >&2
      cat "$AZ_DIR/server.log" >&2
      az_stop
      return 1
    fi
    sleep 0.1
  done

  export SKIPPR_TEST_AZURE_ENDPOINT="http://127.0.0.1:$port/$AZ_ACCOUNT" \
    SKIPPR_TEST_AZURE_ACCOUNT=$AZ_ACCOUNT SKIPPR_TEST_AZURE_KEY=$AZ_KEY
  echo "az_start: Azurite $AZ_VERSION blob service ready on 127.0.0.1:$port" >&2
}

az_stop() {
  [[ -n $AZ_DIR ]] || return 0
  if [[ -n $AZ_PID ]] && az_alive "$AZ_PID"; then
    kill -KILL "$AZ_PID" 2>/dev/null || true
    while az_alive "$AZ_PID"; do sleep 0.05; done
  fi
  rm -rf "$AZ_DIR"
  AZ_DIR=""
  AZ_PID=""
}
