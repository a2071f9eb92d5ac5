#!/bin/sh
# The official image's entrypoint as far as the suite needs it: a new data folder is made with
# the superuser POSTGRES_USER and its password, opened to password logins over TCP, and the
# scripts of /docker-entrypoint-initdb.d run once against a server on the socket only; then
# PostgreSQL runs as process 1 (SIGINT: a fast shutdown).
set -eu
: "${POSTGRES_USER:=postgres}"
: "${PGDATA:=/var/lib/postgresql/data}"
export POSTGRES_USER PGDATA
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'POSTGRES_PASSWORD: not set; the superuser needs a password' >&2
    exit 1
  fi
  mkdir -p "$PGDATA"
  chmod 0700 "$PGDATA"
  password=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$password"
  initdb --username="$POSTGRES_USER" --pwfile="$password" --auth-local=trust \
    --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$password"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait --silent start
  for script in /docker-entrypoint-initdb.d/*; do
    [ -e "$script" ] || continue
    echo "running $script"
    case "$script" in
      *.sh) sh "$script" ;;
      *.sql) psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -f "$script" ;;
    esac
  done
  pg_ctl --pgdata="$PGDATA" --mode=fast --wait --silent stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi
exec "$@"
