#!/usr/bin/env bash
# RabbitMQ for the external broker mode (docs/deployment.md), without systemd.
#
#   scripts/ensure-rabbitmq.sh            install rabbitmq-server and nginx from Debian when missing (root)
#   scripts/ensure-rabbitmq.sh start      also start a node in $RMQ_DIR and configure it (see variables)
#   scripts/ensure-rabbitmq.sh stop       stop the node of $RMQ_DIR
#
# start writes $RMQ_DIR/rabbitmq.conf (MQTT on $RMQ_MQTT_PORT, AMQP on $RMQ_AMQP_PORT, internal users
# first, then the portal's HTTP auth backend at $PORTAL_AUTH_URL behind a 15 s cache), enables the
# mqtt, auth_backend_http, auth_backend_cache, event_exchange and consistent_hash_exchange plugins, and creates the portal's
# service user $RMQ_USER/$RMQ_PASS (default_user, so only on a node's first start). Each directory is its own node (own name, ports, data, cookie),
# so test runs side by side never clash.
set -euo pipefail

RMQ_DIR="${RMQ_DIR:-/var/tmp/pixelfleet-rabbitmq}"
RMQ_AMQP_PORT="${RMQ_AMQP_PORT:-5672}"
RMQ_MQTT_PORT="${RMQ_MQTT_PORT:-1883}"
RMQ_DIST_PORT="${RMQ_DIST_PORT:-$((RMQ_AMQP_PORT + 20000))}"
RMQ_BIND="${RMQ_BIND:-127.0.0.1}"
RMQ_NODE="${RMQ_NODE:-pixelfleet${RMQ_AMQP_PORT}@localhost}"
RMQ_USER="${RMQ_USER:-pixelfleet}"
RMQ_PASS="${RMQ_PASS:-pixelfleet}"
PORTAL_AUTH_URL="${PORTAL_AUTH_URL:-http://127.0.0.1:3000/broker-auth}"
RMQ_BIN=/usr/lib/rabbitmq/bin

install_missing() {
  local missing=()
  [ -x "$RMQ_BIN/rabbitmq-server" ] || missing+=(rabbitmq-server)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing: ${missing[*]} - run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # another apt (CI step, unattended upgrade) may hold the lock: wait for it rather than fail
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # Debian starts a system node on install where an init system runs; ours are started below, on their own ports.
}

node_env() {
  export HOME="$RMQ_DIR" RABBITMQ_NODENAME="$RMQ_NODE" RABBITMQ_CONFIG_FILE="$RMQ_DIR/rabbitmq" \
    RABBITMQ_MNESIA_BASE="$RMQ_DIR/mnesia" RABBITMQ_LOG_BASE="$RMQ_DIR/log" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$RMQ_DIR/enabled_plugins" RABBITMQ_DIST_PORT="$RMQ_DIST_PORT" \
    RABBITMQ_PID_FILE="$RMQ_DIR/rabbitmq.pid" PATH="$RMQ_BIN:$PATH"
}

start_node() {
  mkdir -p "$RMQ_DIR"
  cat > "$RMQ_DIR/rabbitmq.conf" <<CONF
listeners.tcp.1 = $RMQ_BIND:$RMQ_AMQP_PORT
mqtt.listeners.tcp.1 = $RMQ_BIND:$RMQ_MQTT_PORT
mqtt.allow_anonymous = false
mqtt.vhost = /
mqtt.exchange = amq.topic
loopback_users = none
# The portal's service user (internal database; no topic permissions set = every topic).
default_user = $RMQ_USER
default_pass = $RMQ_PASS
default_vhost = /
default_permissions.configure = .*
default_permissions.read = .*
default_permissions.write = .*
auth_backends.1 = internal
auth_backends.2 = cache
auth_cache.cached_backend = http
auth_cache.cache_ttl = 15000
auth_http.http_method = post
auth_http.user_path = $PORTAL_AUTH_URL/user
auth_http.vhost_path = $PORTAL_AUTH_URL/vhost
auth_http.resource_path = $PORTAL_AUTH_URL/resource
auth_http.topic_path = $PORTAL_AUTH_URL/topic
CONF
  echo '[rabbitmq_mqtt,rabbitmq_auth_backend_http,rabbitmq_auth_backend_cache,rabbitmq_event_exchange,rabbitmq_consistent_hash_exchange].' > "$RMQ_DIR/enabled_plugins"
  [ -f "$RMQ_DIR/.erlang.cookie" ] || { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$RMQ_DIR/.erlang.cookie"; chmod 400 "$RMQ_DIR/.erlang.cookie"; }
  node_env
  nohup rabbitmq-server > "$RMQ_DIR/server.out" 2>&1 &
  # Readiness by the listeners (the MQTT one opens last), not rabbitmqctl: each CLI call boots an
  # Erlang VM, seconds of CPU on a busy machine.
  for _ in $(seq 1 180); do
    if (exec 3<>"/dev/tcp/$RMQ_BIND/$RMQ_MQTT_PORT") 2>/dev/null && (exec 3<>"/dev/tcp/$RMQ_BIND/$RMQ_AMQP_PORT") 2>/dev/null; then break; fi
    if ! kill -0 "$!" 2>/dev/null; then tail -20 "$RMQ_DIR/server.out" >&2; exit 1; fi
    sleep 0.5
  done
  echo "RabbitMQ $RMQ_NODE ready: MQTT_BROKER_URL=mqtt://$RMQ_USER:****@$RMQ_BIND:$RMQ_MQTT_PORT (AMQP :$RMQ_AMQP_PORT)"
}

# Stops the node of $RMQ_DIR: rabbitmqctl first (Debian's 3.10 has no --idle-timeout: that option
# made every stop fail unseen), then the pid file's process (SIGTERM, SIGKILL after 60 s).
stop_node() {
  node_env
  local pid=""
  [ -f "$RMQ_DIR/rabbitmq.pid" ] && pid="$(cat "$RMQ_DIR/rabbitmq.pid")"
  if ! rabbitmqctl -q stop; then
    echo "ensure-rabbitmq: rabbitmqctl stop failed for $RMQ_NODE; signalling its process" >&2
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
  fi
  if [ -n "$pid" ]; then
    for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
    echo "ensure-rabbitmq: $RMQ_NODE still runs after 60 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

install_missing
case "${1:-}" in
  start) start_node ;;
  stop) stop_node ;;
  "") ;;
  *) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac
