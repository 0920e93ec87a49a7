#!/usr/bin/env bash
# Install smartmat as a service on a Raspberry Pi OS / Debian machine next to a real mat (run as root).
#   sudo deploy/install.sh
# Afterwards: edit /etc/smartmat/table.yaml (your discs' tag UIDs) and /etc/smartmat/smartmat.env, create the
# broker accounts with deploy/mosquitto/make-passwords.sh, set the referee PIN, then start the service.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "run as root (sudo $0)" >&2; exit 1; }

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv mosquitto mosquitto-clients python3-lgpio || \
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv mosquitto mosquitto-clients

id smartmat >/dev/null 2>&1 || useradd --system --home /var/lib/smartmat --groups dialout smartmat
getent group gpio >/dev/null && usermod -aG gpio smartmat || true

mkdir -p /opt/smartmat /etc/smartmat /etc/mosquitto/smartmat
cp -a "$src"/. /opt/smartmat/
python3 -m venv --system-site-packages /opt/smartmat/.venv   # system site: python3-lgpio on a Pi 5
# Exact versions with their hashes from the lock file, then smartmat itself without dependencies.
/opt/smartmat/.venv/bin/python -m pip install -q "pip==26.3"
/opt/smartmat/.venv/bin/python -m pip install -q --require-hashes -r /opt/smartmat/requirements/run.lock
/opt/smartmat/.venv/bin/python -m pip install -q --no-deps --no-build-isolation /opt/smartmat

[ -f /etc/smartmat/table.yaml ] || cp /opt/smartmat/content/tables/demo.yaml /etc/smartmat/table.yaml
[ -f /etc/smartmat/smartmat.env ] || cp /opt/smartmat/deploy/smartmat.env.example /etc/smartmat/smartmat.env
chmod 600 /etc/smartmat/smartmat.env

cp /opt/smartmat/deploy/mosquitto/smartmat.conf /etc/mosquitto/conf.d/smartmat.conf
cp /opt/smartmat/deploy/mosquitto/acl /etc/mosquitto/smartmat/acl
cp /opt/smartmat/deploy/udev/99-smartmat.rules /etc/udev/rules.d/99-smartmat.rules
udevadm control --reload-rules || true
cp /opt/smartmat/deploy/systemd/smartmat.service /etc/systemd/system/smartmat.service
systemctl daemon-reload
systemctl enable smartmat.service

cat <<'NEXT'
smartmat is installed. Before starting it:
  1. sudo /opt/smartmat/deploy/mosquitto/make-passwords.sh /etc/mosquitto/smartmat/passwords   # broker accounts
  2. sudo -u smartmat /opt/smartmat/.venv/bin/smartmat dashboard set-pin --pin-file /var/lib/smartmat/referee-pin
  3. edit /etc/smartmat/table.yaml (your discs' tag UIDs) and /etc/smartmat/smartmat.env (passwords)
  4. sudo systemctl restart mosquitto && sudo systemctl start smartmat && journalctl -u smartmat -f
NEXT
