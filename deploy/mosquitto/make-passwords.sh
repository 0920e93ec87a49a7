#!/bin/sh
# Create the Mosquitto password file for smartmat's accounts: daemon, referee, dashboard, spectator, tracker,
# wled-bridge and camera, and one more for each WLED device named on the command line (its id, e.g. board-1).
#
#   deploy/mosquitto/make-passwords.sh /etc/mosquitto/smartmat/passwords [board-1 board-2 ...]
#
# The broker names every client after its account (use_username_as_clientid), so each program or device needs
# an account of its own. Each account's password comes from SMARTMAT_MQTT_<ACCOUNT>_PASSWORD, upper case with
# '-' as '_' (e.g. SMARTMAT_MQTT_WLED_BRIDGE_PASSWORD). An account without one gets a random password, printed
# once so it can go into the broker URLs of smartmat.env and the devices' settings.
# Passwords are written to a private file and hashed in place by `mosquitto_passwd -U`, so they never appear
# on a command line (where `ps` would show them).
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 PASSWORD_FILE [WLED_DEVICE_ID ...]" >&2
    exit 2
fi
target=$1
shift
for device in "$@"; do
    case $device in
        daemon|referee|dashboard|spectator|tracker|wled-bridge|camera)
            echo "$0: $device is one of the table's own accounts, not a WLED device id" >&2; exit 2 ;;
        *[!a-z0-9-]*|-*|"")
            echo "$0: device id $device must be lower-case letters, digits and '-' (as in wled/<id>)" >&2; exit 2 ;;
    esac
done
if ! command -v mosquitto_passwd >/dev/null 2>&1; then
    echo "$0: mosquitto_passwd not found (apt-get install mosquitto)" >&2
    exit 1
fi

umask 077
mkdir -p "$(dirname "$target")"
plain=$(mktemp "$target.XXXXXX")
trap 'rm -f "$plain"' EXIT

for role in daemon referee dashboard spectator tracker wled-bridge camera "$@"; do
    var="SMARTMAT_MQTT_$(echo "$role" | tr '[:lower:]-' '[:upper:]_')_PASSWORD"
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
