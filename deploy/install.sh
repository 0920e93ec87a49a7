#!/usr/bin/env bash
# Install smartmat as a service on a Raspberry Pi OS / Debian machine next to a real mat (run as root).
#   sudo deploy/install.sh              install on this machine
#   deploy/install.sh --dry-run         print every action, change nothing (no root needed)
#   deploy/install.sh --root DIR        install the files, the service user and the enabled unit into DIR (an
#                                       image being built, or a test); packages and the Python environment are
#                                       left out there (a venv only works at the path it was made at)
# Afterwards: edit /etc/smartmat/table.yaml (your discs' tag UIDs) and /etc/smartmat/smartmat.env, create the
# broker accounts with deploy/mosquitto/make-passwords.sh, set the referee PIN, then start the service.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
root="" dry_run=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --root) [ $# -ge 2 ] || usage; root="$2"; shift ;;
    --root=*) root="${1#--root=}" ;;
    -h|--help) usage ;;
    *) echo "install.sh: unknown argument $1" >&2; usage ;;
  esac
  shift
done
if [ -n "$root" ]; then
  [ -n "$dry_run" ] || mkdir -p "$root"
  root="$(cd "$root" 2>/dev/null && pwd || echo "$root")"   # absolute, for the tools that chdir
fi
if [ -z "$dry_run" ] && [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
  echo "run as root (sudo $0), or see what it would do with --dry-run" >&2; exit 1
fi

# Every change goes through run (printed, then done unless --dry-run); what --root leaves out through skip.
run() { printf '+'; printf ' %q' "$@"; printf '\n'; [ -n "$dry_run" ] || "$@"; }
skip() { printf '# not with --root: %s\n' "$*"; }
# A file from the source tree to its place under the root, with its mode.
put() { run install -D -m "$1" "$2" "$root$3"; }
# Copy the source tree: not its hidden folders (.git, .venv, the tools' caches), build output or databases.
copy_tree() {
  tar -C "$1" --exclude='./.*' --exclude='__pycache__' --exclude='*.pyc' --exclude='*.egg-info' \
    --exclude=./build --exclude=./dist --exclude=./var --exclude=./test-artifacts --exclude='*.sqlite*' \
    -cf - . | tar -C "$2" --no-same-owner -xf -
}
has_group() { grep -q "^$1:" "$root/etc/group" 2>/dev/null; }

# -- packages -------------------------------------------------------------------------------------------------
packages=(python3 python3-venv mosquitto mosquitto-clients)
if [ -n "$root" ]; then
  skip "apt-get install ${packages[*]} (and python3-lgpio on a Raspberry Pi 5)"
else
  run apt-get update -qq
  # gpiozero needs lgpio on a Raspberry Pi 5; other machines have no such package.
  apt-cache show python3-lgpio >/dev/null 2>&1 && packages+=(python3-lgpio)
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
fi

# -- the service user: smartmat, in dialout (the mat's serial port) and, on a Raspberry Pi, gpio ------------------
put 644 "$src/deploy/systemd/smartmat-sysusers.conf" /etc/sysusers.d/smartmat.conf
[ -n "$dry_run" ] || mkdir -p "$root/etc"
run systemd-sysusers ${root:+--root="$root"} "$root/etc/sysusers.d/smartmat.conf"
if has_group gpio; then
  run usermod ${root:+--prefix "$root"} -aG gpio smartmat
fi

# -- the program: /opt/smartmat, and its virtual environment from the run lock (exact versions, hashes) -----------
run mkdir -p "$root/opt/smartmat"
printf '+ copy %q to %q (without hidden folders, caches and build output)\n' "$src" "$root/opt/smartmat"
[ -n "$dry_run" ] || copy_tree "$src" "$root/opt/smartmat"
venv=/opt/smartmat/.venv
if [ -n "$root" ]; then
  skip "python3 -m venv --system-site-packages $venv; pip install --require-hashes -r /opt/smartmat/requirements/run.lock; pip install --no-deps /opt/smartmat"
else
  run python3 -m venv --system-site-packages "$venv"   # system site: python3-lgpio on a Pi 5
  run "$venv/bin/python" -m pip install -q "pip==26.3"
  run "$venv/bin/python" -m pip install -q --require-hashes -r /opt/smartmat/requirements/run.lock
  run "$venv/bin/python" -m pip install -q --no-deps --no-build-isolation /opt/smartmat
fi

# -- the table's settings: kept when they exist -------------------------------------------------------------------
run mkdir -p "$root/etc/smartmat"
[ -f "$root/etc/smartmat/table.yaml" ] || put 644 "$src/content/tables/demo.yaml" /etc/smartmat/table.yaml
[ -f "$root/etc/smartmat/smartmat.env" ] || put 600 "$src/deploy/smartmat.env.example" /etc/smartmat/smartmat.env
run chmod 600 "$root/etc/smartmat/smartmat.env"   # broker passwords

# -- HTTPS for the referee's pages: this machine's own certificate in /etc/smartmat/tls, kept when it exists ------
# `smartmat dashboard make-cert` (openssl) names the machine as phones reach it and prints the SHA-256
# fingerprint a referee checks (docs/security.md); the service finds the pair through SMARTMAT_TLS_CERT and
# SMARTMAT_TLS_KEY in smartmat.env and serves the referee over HTTPS on 8443, spectators on 8080 as well.
tls_dir=/etc/smartmat/tls
if [ -n "$root" ]; then
  skip "a certificate in $tls_dir: every machine needs a key of its own, so make it there (run this script" \
    "on it, or smartmat dashboard make-cert --dir $tls_dir) and add SMARTMAT_TLS_CERT/KEY to smartmat.env"
else
  run install -d -m 750 -g smartmat "$tls_dir"
  run "$venv/bin/smartmat" dashboard make-cert --dir "$tls_dir"   # keeps an existing pair
  run chgrp smartmat "$tls_dir/key.pem"
  run chmod 640 "$tls_dir/key.pem"   # readable by the service, not by other users
  add_setting() { printf '%s\n' "$1" >> "$2"; }
  for setting in "SMARTMAT_TLS_CERT=$tls_dir/cert.pem" "SMARTMAT_TLS_KEY=$tls_dir/key.pem"; do
    grep -q "^${setting%%=*}=" /etc/smartmat/smartmat.env 2>/dev/null ||
      run add_setting "$setting" /etc/smartmat/smartmat.env
  done
fi

# -- Mosquitto: the listener with passwords and ACLs (the password file comes from make-passwords.sh) ------------
put 644 "$src/deploy/mosquitto/smartmat.conf" /etc/mosquitto/conf.d/smartmat.conf
put 644 "$src/deploy/mosquitto/acl" /etc/mosquitto/smartmat/acl

# -- the mat's serial port as /dev/smartmat, and the service -----------------------------------------------------
put 644 "$src/deploy/udev/99-smartmat.rules" /etc/udev/rules.d/99-smartmat.rules
put 644 "$src/deploy/systemd/smartmat.service" /etc/systemd/system/smartmat.service
if [ -n "$root" ]; then
  skip "udevadm control --reload-rules; systemctl daemon-reload"
  run systemctl --root="$root" enable smartmat.service
else
  run udevadm control --reload-rules || true
  run systemctl daemon-reload
  run systemctl enable smartmat.service
fi

[ -z "$dry_run" ] || { echo "# dry run: nothing was changed"; exit 0; }
cat <<NEXT
smartmat is installed${root:+ under $root}. Before starting it:
  1. sudo /opt/smartmat/deploy/mosquitto/make-passwords.sh /etc/mosquitto/smartmat/passwords [board-1 ...]
     (broker accounts: the table's own, and one per WLED device id; docs/mqtt.md)
  2. sudo -u smartmat /opt/smartmat/.venv/bin/smartmat dashboard set-pin --pin-file /var/lib/smartmat/referee-pin
  3. edit /etc/smartmat/table.yaml (your discs' tag UIDs) and /etc/smartmat/smartmat.env (passwords)
  4. sudo systemctl restart mosquitto && sudo systemctl start smartmat && journalctl -u smartmat -f
     (systemctl status smartmat shows what the daemon is doing; it needs Mosquitto running)
NEXT
