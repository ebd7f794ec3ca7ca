#!/bin/sh
# /usr/local/bin/scorekeeper, installed by deploy/deploy.sh: scorekeeper's commands on this
# server, as root (sudo scorekeeper ..., or without sudo in a root shell). For example:
#   scorekeeper backup /var/backups/scorekeeper/     a dated backup in that folder
#   scorekeeper restore /var/backups/scorekeeper/scorekeeper-2025-03-06-043000.backup
#   scorekeeper --help                               every command
# Each runs as the scorekeeper user with the server's settings (the env file), as the service
# does: the flask of /opt/scorekeeper/venv with `--app scorekeeper`.
set -eu
ENV_FILE=/etc/scorekeeper/scorekeeper.env
APP_DIR=/opt/scorekeeper

if [ "$(id -u)" -ne 0 ]; then
  echo "Run it as root: sudo $0 $*  (in a root shell, without sudo)" >&2
  exit 1
fi
if [ ! -r "$ENV_FILE" ] || [ ! -x "$APP_DIR/venv/bin/flask" ]; then
  echo "scorekeeper is not installed here ($ENV_FILE, $APP_DIR/venv): run deploy/deploy.sh first." >&2
  exit 1
fi
[ "$#" -gt 0 ] || set -- --help
# shellcheck disable=SC2016  # $1 and $@ are the inner shell's
exec runuser -u scorekeeper -- /bin/sh -c 'set -a; . "$1"; set +a; shift; exec "$@"' \
  scorekeeper "$ENV_FILE" "$APP_DIR/venv/bin/flask" --app scorekeeper "$@"
