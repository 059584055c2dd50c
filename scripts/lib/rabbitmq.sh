# shellcheck shell=bash
# Throwaway RabbitMQ broker for tests: Debian's `rabbitmq-server`, run as the current user from a
# temp folder (no system service), with every listener on 127.0.0.1: AMQP, AMQP over TLS, the
# Erlang distribution port, its own epmd, and the CLI tools' distribution ports; no plugins (no
# management listener). Source this file, then:
#   mq_install   install Debian's `rabbitmq-server` and openssl if missing, without letting the
#                package start its system service
#   mq_start     start a broker on free 127.0.0.1 ports with a throwaway CA and export
#                SKIPPR_TEST_AMQP_{HOST,PORT,TLS_PORT,USER,PASSWORD,VHOST} (a user with every
#                permission on that vhost), SKIPPR_TEST_AMQP_WRITER{,_PASSWORD} (a user that may
#                only write there: what the AMQP sink needs), SKIPPR_TEST_AMQP_READER{,_PASSWORD}
#                (a user that may only read there), SKIPPR_TEST_AMQP_CA (the CA that signed the
#                broker's certificate for 127.0.0.1 and localhost) and SKIPPR_TEST_AMQP_OTHER_CA
#                (an unrelated CA's)
#   mq_ctl ARG…  run rabbitmqctl against that broker (tests and debugging)
#   mq_stop      stop the broker and its epmd and delete their files; safe to call more than
#                once, so use it in an EXIT trap

MQ_LIB=/usr/lib/rabbitmq/bin  # the scripts the package's /usr/sbin wrappers run as user rabbitmq
MQ_DIR=""   # temp dir of the running broker: config, data, logs, certificates, Erlang cookie
MQ_NODE=""
MQ_PID=""
MQ_EPMD_PID=""
MQ_EPMD_PORT=""
MQ_CTL_PORT=""

mq_install() {
  [[ -x $MQ_LIB/rabbitmq-server ]] && command -v openssl >/dev/null && return 0
  echo "mq_install: installing RabbitMQ and openssl with apt" >&2
  local guard=""
  # The package starts its system service, listening on every interface, unless policy-rc.d
  # says no: say no for the install when nothing does yet.
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' >"$guard" && chmod 755 "$guard"
  fi
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends rabbitmq-server openssl
  local status=$?
  [[ -z $guard ]] || rm -f "$guard"
  return "$status"
}

mq_free_port() {  # a port below the ephemeral range with nothing listening on it, not in $*
  local port
  for _ in {1..100}; do
    port=$((20000 + RANDOM % 12000))
    if [[ " $* " != *" $port "* ]] && ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "mq_free_port: no free port found" >&2
  return 1
}

mq_tls() {  # a throwaway CA, a broker certificate it signed for 127.0.0.1 and localhost, and an
  # unrelated CA, in folder $1
  local dir=$1 ca
  mkdir -p "$dir"
  for ca in ca other-ca; do
    openssl req -x509 -newkey rsa:2048 -nodes -days 3 -subj "/CN=Skippr test $ca" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
      -keyout "$dir/$ca.key" -out "$dir/$ca.crt" 2>/dev/null || return 1
  done
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/server.key" \
    -out "$dir/server.csr" 2>/dev/null || return 1
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" >"$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 3 -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null || return 1
  rm -f "$dir/ca.key" "$dir/other-ca.key" "$dir/server.csr"
  chmod 600 "$dir/server.key"
}

mq_vars() {  # the broker's environment: its folder, node, ports and Erlang cookie (in HOME)
  MQ_VARS=(HOME="$MQ_DIR"
    RABBITMQ_NODENAME="$MQ_NODE"
    RABBITMQ_CONF_ENV_FILE="$MQ_DIR/rabbitmq-env.conf"
    RABBITMQ_CONFIG_FILE="$MQ_DIR/rabbitmq.conf"
    RABBITMQ_ADVANCED_CONFIG_FILE="$MQ_DIR/advanced.config"
    RABBITMQ_ENABLED_PLUGINS_FILE="$MQ_DIR/enabled_plugins"
    RABBITMQ_MNESIA_BASE="$MQ_DIR/mnesia"
    RABBITMQ_LOG_BASE="$MQ_DIR/log"
    RABBITMQ_PID_FILE="$MQ_DIR/server.pid"
    ERL_EPMD_ADDRESS=127.0.0.1
    ERL_EPMD_PORT="$MQ_EPMD_PORT"
    RABBITMQ_CTL_DIST_PORT_MIN="$MQ_CTL_PORT"
    RABBITMQ_CTL_DIST_PORT_MAX="$((MQ_CTL_PORT + 10))"
    RABBITMQ_CTL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}")
}

mq_ctl() {
  local MQ_VARS
  mq_vars
  env "${MQ_VARS[@]}" "$MQ_LIB/rabbitmqctl" -q -n "$MQ_NODE" "$@"
}

mq_alive() {  # true while process $1 runs (a zombie waiting to be reaped does not count)
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [[ $stat != *") Z "* ]]
}

mq_start() {
  local port tls dist started user=skippr password reader_password writer_password MQ_VARS
  [[ -z $MQ_DIR ]] || { echo "mq_start: already running in $MQ_DIR" >&2; return 1; }
  [[ -x $MQ_LIB/rabbitmq-server ]] || { echo "mq_start: RabbitMQ is not installed" >&2; return 1; }
  MQ_DIR=$(mktemp -d /tmp/skippr-mq.XXXXXX)
  MQ_NODE=skippr-${MQ_DIR##*.}@localhost
  port=$(mq_free_port) && tls=$(mq_free_port "$port") && dist=$(mq_free_port "$port" "$tls") \
    && MQ_EPMD_PORT=$(mq_free_port "$port" "$tls" "$dist") || return 1
  # the CLI tools take the first free port of ten above this one for their own distribution
  MQ_CTL_PORT=$(mq_free_port "$port" "$tls" "$dist" "$MQ_EPMD_PORT") || return 1
  password=$(od -An -N9 -tx1 /dev/urandom | tr -d ' \n')
  reader_password=$(od -An -N9 -tx1 /dev/urandom | tr -d ' \n')
  writer_password=$(od -An -N9 -tx1 /dev/urandom | tr -d ' \n')
  mq_tls "$MQ_DIR/tls" || return 1
  mkdir -p "$MQ_DIR/mnesia" "$MQ_DIR/log"
  echo '[].' >"$MQ_DIR/enabled_plugins"
  echo '[].' >"$MQ_DIR/advanced.config"
  : >"$MQ_DIR/rabbitmq-env.conf"
  (umask 077 && cat >"$MQ_DIR/rabbitmq.conf" <<CONF
listeners.tcp.1 = 127.0.0.1:$port
listeners.ssl.1 = 127.0.0.1:$tls
ssl_options.cacertfile = $MQ_DIR/tls/ca.crt
ssl_options.certfile = $MQ_DIR/tls/server.crt
ssl_options.keyfile = $MQ_DIR/tls/server.key
ssl_options.verify = verify_none
ssl_options.fail_if_no_peer_cert = false
default_vhost = skippr
default_user = $user
default_pass = $password
default_permissions.configure = .*
default_permissions.read = .*
default_permissions.write = .*
default_user_tags.administrator = true
log.console = false
log.file.level = warning
CONF
  )

  # Its own epmd, on loopback, so the node registers nowhere else; stopped with the node.
  epmd -address 127.0.0.1 -port "$MQ_EPMD_PORT" >"$MQ_DIR/epmd.log" 2>&1 &
  MQ_EPMD_PID=$!
  disown "$MQ_EPMD_PID"
  # As under systemd, the script execs the Erlang VM (no signal-forwarding shell): $! is the
  # broker's pid.
  mq_vars
  env "${MQ_VARS[@]}" RUNNING_UNDER_SYSTEMD=true RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$port" \
    RABBITMQ_DIST_PORT="$dist" \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
    "$MQ_LIB/rabbitmq-server" >"$MQ_DIR/server.log" 2>&1 &
  MQ_PID=$!
  disown "$MQ_PID"
  started=$SECONDS
  until mq_ctl await_startup --timeout 5 >>"$MQ_DIR/ctl.log" 2>&1; do
    if (( SECONDS - started > 120 )) || ! mq_alive "$MQ_PID"; then
      echo "mq_start: RabbitMQ did not get ready; logs:" >&2
      cat "$MQ_DIR/server.log" "$MQ_DIR/ctl.log" "$MQ_DIR"/log/*.log >&2 2>/dev/null
      mq_stop
      return 1
    fi
    sleep 0.2
  done
  # permissions: configure, write, read (regular expressions of the resources' names)
  mq_ctl add_user skippr_writer "$writer_password" >/dev/null \
    && mq_ctl set_permissions -p skippr skippr_writer '' '.*' '' >/dev/null \
    && mq_ctl add_user skippr_reader "$reader_password" >/dev/null \
    && mq_ctl set_permissions -p skippr skippr_reader '' '' '.*' >/dev/null || return 1

  export SKIPPR_TEST_AMQP_HOST=127.0.0.1 SKIPPR_TEST_AMQP_PORT=$port SKIPPR_TEST_AMQP_TLS_PORT=$tls \
    SKIPPR_TEST_AMQP_USER=$user SKIPPR_TEST_AMQP_PASSWORD=$password SKIPPR_TEST_AMQP_VHOST=skippr \
    SKIPPR_TEST_AMQP_WRITER=skippr_writer SKIPPR_TEST_AMQP_WRITER_PASSWORD=$writer_password \
    SKIPPR_TEST_AMQP_READER=skippr_reader SKIPPR_TEST_AMQP_READER_PASSWORD=$reader_password \
    SKIPPR_TEST_AMQP_CA=$MQ_DIR/tls/ca.crt SKIPPR_TEST_AMQP_OTHER_CA=$MQ_DIR/tls/other-ca.crt
  echo "mq_start: RabbitMQ $(mq_ctl version 2>/dev/null) ready on 127.0.0.1:$port (AMQP)," \
    ":$tls (AMQPS), distribution :$dist, epmd :$MQ_EPMD_PORT" >&2
}

mq_stop() {
  local pid
  [[ -n $MQ_DIR ]] || return 0
  for pid in $MQ_PID $MQ_EPMD_PID; do
    if mq_alive "$pid"; then
      kill -KILL "$pid" 2>/dev/null || true
      while mq_alive "$pid"; do sleep 0.05; done
    fi
  done
  rm -rf "$MQ_DIR"
  MQ_DIR="" MQ_PID="" MQ_EPMD_PID=""
}
