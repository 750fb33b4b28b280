#!/usr/bin/env bash
# Makes a PostgreSQL server reachable for the tests and benchmarks and prints its superuser URL.
#  - installs PostgreSQL from Debian when missing (as root, with apt-get);
#  - starts a throwaway cluster (initdb + pg_ctl, no systemd needed) when none answers on the port;
#  - creates the superuser `pixelfleet` (password `pixelfleet`).
# Usage: scripts/ensure-postgres.sh            prints  postgresql://pixelfleet:pixelfleet@127.0.0.1:PORT/postgres
#        eval "$(scripts/ensure-postgres.sh --export)"   sets PIXELFLEET_TEST_POSTGRES_URL
# Settings: PIXELFLEET_PG_PORT (55433), PIXELFLEET_PG_DIR (/var/lib/pixelfleet-test-postgres as root,
# else /tmp/pixelfleet-test-postgres-$USER). The cluster trades durability for speed (fsync off):
# it is for tests and benchmarks only, never for data you keep (docs/deployment.md).
set -euo pipefail

PORT="${PIXELFLEET_PG_PORT:-55433}"
if [ "$(id -u)" = 0 ]; then DIR="${PIXELFLEET_PG_DIR:-/var/lib/pixelfleet-test-postgres}"; else DIR="${PIXELFLEET_PG_DIR:-/tmp/pixelfleet-test-postgres-$(id -un)}"; fi
USER_NAME=pixelfleet
URL="postgresql://${USER_NAME}:${USER_NAME}@127.0.0.1:${PORT}/postgres"
log() { echo "ensure-postgres: $*" >&2; }

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

if [ -z "$(bindir)" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "PostgreSQL is not installed: run \`sudo apt-get install -y postgresql\`, then this script again."
    exit 1
  fi
  log "installing PostgreSQL from Debian..."
  export DEBIAN_FRONTEND=noninteractive
  # another apt may hold the lock: wait for it rather than fail
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  # no cluster of the package's own: we start ours below
  mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq postgresql >/dev/null
fi
BIN="$(bindir)"

# As root the server runs as the `postgres` system user (PostgreSQL refuses root).
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if ! "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  if [ ! -f "$DIR/data/PG_VERSION" ]; then
    log "creating a cluster in $DIR"
    mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR"
    as_owner "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  fi
  log "starting PostgreSQL on 127.0.0.1:$PORT"
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >&2
fi

"$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${USER_NAME}') THEN
    CREATE ROLE ${USER_NAME} LOGIN SUPERUSER PASSWORD '${USER_NAME}';
  END IF;
END \$\$;
SQL

if [ "${1:-}" = "--export" ]; then echo "export PIXELFLEET_TEST_POSTGRES_URL='$URL'"; else echo "$URL"; fi
