#!/bin/sh
# Create the Mosquitto password file for smartmat's four roles (daemon, referee, spectator, tracker).
#
#   deploy/mosquitto/make-passwords.sh /etc/mosquitto/smartmat/passwords
#
# Each role's password comes from SMARTMAT_MQTT_<ROLE>_PASSWORD (e.g. SMARTMAT_MQTT_REFEREE_PASSWORD). A role
# without one gets a random password, printed once so it can go into the daemon's and dashboard's broker URLs.
# Passwords are written to a private file and hashed in place by `mosquitto_passwd -U`, so they never appear
# on a command line (where `ps` would show them).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 PASSWORD_FILE" >&2
    exit 2
fi
target=$1
if ! command -v mosquitto_passwd >/dev/null 2>&1; then
    echo "$0: mosquitto_passwd not found (apt-get install mosquitto)" >&2
    exit 1
fi

umask 077
mkdir -p "$(dirname "$target")"
plain=$(mktemp "$target.XXXXXX")
trap 'rm -f "$plain"' EXIT

for role in daemon referee spectator tracker; do
    var="SMARTMAT_MQTT_$(echo "$role" | tr '[:lower:]' '[:upper:]')_PASSWORD"
    eval "password=\${$var:-}"
    if [ -z "$password" ]; then
        password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=\n')
        echo "$role: $password    (generated; set $var to choose it)"
    fi
    case $password in
        *"
"*) echo "$0: $var must be a single line" >&2; exit 1 ;;
    esac
    printf '%s:%s\n' "$role" "$password" >>"$plain"
done

mosquitto_passwd -U "$plain"
# The broker drops to the mosquitto user before reading the file on Debian; let that group read it.
if [ "$(id -u)" -eq 0 ] && getent group mosquitto >/dev/null 2>&1; then
    chgrp mosquitto "$plain"
    chmod 640 "$plain"
fi
mv "$plain" "$target"
trap - EXIT
echo "wrote $target; restart or reload mosquitto to use it"
