"""``smartmat dashboard``: serve the dashboard, or set the referee PIN."""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from web_dashboard.security import PinError, write_pin_file

log = logging.getLogger(__name__)
DEFAULT_PIN_FILE = (
    Path(os.environ.get("SMARTMAT_STATE_DIR", "~/.local/state/smartmat")).expanduser() / "referee-pin"
)


def register_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("dashboard", help="serve the web dashboard of one table")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--table", default="table-1", help="table id (default: table-1)")
    parser.add_argument(
        "--broker",
        default=os.environ.get("SMARTMAT_MQTT_URL", "mqtt://127.0.0.1:1883"),
        help="read-only MQTT URL for the table feed, mqtt://user:pass@host:port",
    )
    parser.add_argument(
        "--referee-broker",
        default=os.environ.get("SMARTMAT_MQTT_REFEREE_URL"),
        help="MQTT URL with the referee credential for commands (default: --broker)",
    )
    parser.add_argument(
        "--pin-file", type=Path, default=DEFAULT_PIN_FILE, help=f"default: {DEFAULT_PIN_FILE}"
    )
    parser.add_argument("--behind-tls", action="store_true", help="mark session cookies Secure (HTTPS proxy)")
    parser.add_argument(
        "--public-url", help="address the spectators' QR code opens, e.g. http://10.0.0.2:8080"
    )
    parser.set_defaults(func=_serve)

    sub = parser.add_subparsers(dest="dashboard_command", metavar="ACTION")
    set_pin = sub.add_parser("set-pin", help="set the referee PIN or passphrase (stored hashed)")
    set_pin.add_argument("--pin-file", type=Path, default=DEFAULT_PIN_FILE)
    set_pin.add_argument("--pin-stdin", action="store_true", help="read the PIN from standard input")
    set_pin.set_defaults(func=_set_pin)


def _set_pin(args: argparse.Namespace) -> int:
    if args.pin_stdin:
        pin = sys.stdin.readline().rstrip("\n")
    else:
        pin = getpass.getpass("New referee PIN: ")
        if getpass.getpass("Again: ") != pin:
            print("The two PINs differ; nothing changed.", file=sys.stderr)
            return 1
    try:
        write_pin_file(args.pin_file, pin)
    except PinError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Referee PIN stored (hashed) in {args.pin_file}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from web_dashboard.server import serve_dashboard

    config: dict[str, Any] = {
        "HOST": args.host,
        "PORT": args.port,
        "TABLE": args.table,
        "MQTT_URL": args.broker,
        "MQTT_REFEREE_URL": args.referee_broker,
        "BEHIND_TLS": args.behind_tls,
        "PUBLIC_URL": args.public_url,
    }
    if args.pin_file.exists():
        config["REFEREE_PIN_FILE"] = str(args.pin_file)
    else:
        log.warning(
            "no referee PIN at %s: run `smartmat dashboard set-pin` to enable the referee pages",
            args.pin_file,
        )
    try:
        server = serve_dashboard(config)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"smartmat dashboard for table {args.table}: {server.url}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    server.stop()
    return 0
