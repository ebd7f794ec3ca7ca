#!/usr/bin/env bash
# Install or update scorekeeper on a Debian or Ubuntu server with systemd, from a checkout of
# it, as root (in a root shell: ./deploy/deploy.sh; otherwise: sudo ./deploy/deploy.sh).
# Run it again for every new version: it installs the code, runs the migrations
# (flask db upgrade), restarts gunicorn and checks /healthz. The first run also installs
# PostgreSQL, Redis and Caddy, creates the scorekeeper user and database, and writes
# /etc/scorekeeper/scorekeeper.env; set PUBLIC_URL there and run it again. It installs the
# `scorekeeper` command (backup, restore, ...: docs/deploying.md, "Backups").
set -euo pipefail

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
APP_DIR=/opt/scorekeeper
ENV_FILE=/etc/scorekeeper/scorekeeper.env
BACKUPS=/var/backups/scorekeeper

# Before anything is changed: gunicorn, the nightly backup and Caddy run as systemd services.
if [ ! -d /run/systemd/system ]; then
  cat >&2 <<'WITHOUT_SYSTEMD'
deploy.sh needs systemd, and this machine does not run it (a container, or a small board
without it?). Nothing was changed. Without systemd, serve scorekeeper as docs/deploying.md
says for setups 1 and 2 (make lan; Caddy in front for HTTPS).
WITHOUT_SYSTEMD
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Run it as root: sudo $0 (in a root shell: $0). Nothing was changed." >&2
  exit 1
fi

echo "== packages"
export DEBIAN_FRONTEND=noninteractive
missing=""
for package in python3-venv postgresql redis-server caddy curl; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq $missing
fi

echo "== user, folders and database"
id scorekeeper >/dev/null 2>&1 || useradd --system --home-dir "$APP_DIR" --shell /usr/sbin/nologin scorekeeper
install -d -o scorekeeper -g scorekeeper "$APP_DIR"
install -d -m 700 -o scorekeeper -g scorekeeper "$BACKUPS"
install -d -m 750 -o root -g scorekeeper /etc/scorekeeper
if ! runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'scorekeeper'" | grep -q 1; then
  runuser -u postgres -- createuser scorekeeper
fi
if ! runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'scorekeeper'" | grep -q 1; then
  runuser -u postgres -- createdb --owner scorekeeper scorekeeper
fi

if [ ! -f "$ENV_FILE" ]; then
  secret=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
  sed "s/^SECRET_KEY=.*/SECRET_KEY=$secret/" "$SOURCE/deploy/scorekeeper.env.example" > "$ENV_FILE"
  chown root:scorekeeper "$ENV_FILE"
  chmod 640 "$ENV_FILE"
fi
public_url=$(sed -n 's/^PUBLIC_URL=//p' "$ENV_FILE")
if [ -z "$public_url" ] || [ "$public_url" = "https://scores.example.org" ]; then
  echo "Set PUBLIC_URL (and TRUSTED_HOSTS) in $ENV_FILE to your domain, then run $0 again." >&2
  exit 1
fi
domain=${public_url#https://}
domain=${domain#http://}
domain=${domain%%/*}
# One port setting for gunicorn (the unit reads it), Caddy and the health check below.
port=$(sed -n 's/^SCOREKEEPER_PORT=//p' "$ENV_FILE" | tr -d "\"' ")
port=${port:-8000}
case $port in
  *[!0-9]*) echo "SCOREKEEPER_PORT in $ENV_FILE must be a port number, not $port." >&2; exit 1 ;;
esac

echo "== scorekeeper into $APP_DIR/venv"
[ -x "$APP_DIR/venv/bin/python" ] || runuser -u scorekeeper -- python3 -m venv "$APP_DIR/venv"
build=$(mktemp -d)
cp -r "$SOURCE/." "$build/"
chown -R scorekeeper "$build"
runuser -u scorekeeper -- "$APP_DIR/venv/bin/pip" install --quiet --upgrade pip
runuser -u scorekeeper -- "$APP_DIR/venv/bin/pip" install --quiet --upgrade "$build[gunicorn,redis,postgres]"
rm -rf "$build"
install -d -o scorekeeper -g scorekeeper "$APP_DIR/venv/var"
install -m 755 "$SOURCE/deploy/scorekeeper.sh" /usr/local/bin/scorekeeper

echo "== migrations (flask db upgrade)"
runuser -u scorekeeper -- bash -c "set -a; . '$ENV_FILE'; set +a; cd '$APP_DIR'; exec venv/bin/flask --app scorekeeper db upgrade"

echo "== systemd: gunicorn and the daily backup"
for unit in scorekeeper.service scorekeeper-backup.service scorekeeper-backup.timer; do
  install -m 644 "$SOURCE/deploy/$unit" "/etc/systemd/system/$unit"
done
systemctl daemon-reload
systemctl enable --quiet scorekeeper.service scorekeeper-backup.timer redis-server postgresql
systemctl start scorekeeper-backup.timer
systemctl restart scorekeeper.service

echo "== Caddy for $domain"
sed -e "s/{\$SCOREKEEPER_DOMAIN}/$domain/" -e "s/{\$SCOREKEEPER_PORT:8000}/$port/" \
  "$SOURCE/deploy/Caddyfile" > /etc/caddy/Caddyfile.new
caddy validate --adapter caddyfile --config /etc/caddy/Caddyfile.new >/dev/null
mv /etc/caddy/Caddyfile.new /etc/caddy/Caddyfile
systemctl enable --quiet caddy
systemctl reload-or-restart caddy

echo "== health"
for _ in $(seq 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "scorekeeper is up: $public_url  (logs: journalctl -u scorekeeper)"
    exit 0
  fi
  sleep 1
done
echo "scorekeeper did not answer /healthz within 60 s; the last log lines:" >&2
journalctl -u scorekeeper -n 50 --no-pager >&2
exit 1
