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
DEFAULT_TLS_DIR = DEFAULT_PIN_FILE.parent / "tls"


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
        "--tls-cert",
        type=Path,
        default=os.environ.get("SMARTMAT_TLS_CERT") or None,
        help="PEM certificate: serve HTTPS on --tls-port; the plain --port then serves spectators only "
        "(default $SMARTMAT_TLS_CERT; `smartmat dashboard make-cert` makes one)",
    )
    parser.add_argument(
        "--tls-key", type=Path, default=os.environ.get("SMARTMAT_TLS_KEY") or None, help="its PEM key"
    )
    parser.add_argument("--tls-port", type=int, default=8443, help="HTTPS port with --tls-cert (8443)")
    parser.add_argument(
        "--public-url", help="address the spectators' QR code opens, e.g. http://10.0.0.2:8080"
    )
    parser.set_defaults(func=_serve)

    sub = parser.add_subparsers(dest="dashboard_command", metavar="ACTION")
    set_pin = sub.add_parser("set-pin", help="set the referee PIN or passphrase (stored hashed)")
    set_pin.add_argument("--pin-file", type=Path, default=DEFAULT_PIN_FILE)
    set_pin.add_argument("--pin-stdin", action="store_true", help="read the PIN from standard input")
    set_pin.set_defaults(func=_set_pin)

    make_cert = sub.add_parser(
        "make-cert",
        help="make a local self-signed certificate for HTTPS and print its SHA-256 fingerprint",
        description="Writes cert.pem and key.pem (owner-only) into --dir. An existing pair is kept (its "
        "fingerprint printed) unless --force.",
    )
    make_cert.add_argument("--dir", type=Path, default=DEFAULT_TLS_DIR, help=f"default: {DEFAULT_TLS_DIR}")
    make_cert.add_argument(
        "--name",
        action="append",
        help="a host name or IP address phones use to reach this machine (repeatable; default: this "
        "machine's name, <name>.local, localhost and its current addresses)",
    )
    make_cert.add_argument("--days", type=int, default=825, help="validity (default 825, iOS's maximum)")
    make_cert.add_argument("--force", action="store_true", help="replace an existing certificate")
    make_cert.set_defaults(func=_make_cert)


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


def _make_cert(args: argparse.Namespace) -> int:
    from web_dashboard.server import certificate_fingerprint
    from web_dashboard.tls import CERT_NAME, KEY_NAME, CertificateError, make_certificate

    cert, key = args.dir / CERT_NAME, args.dir / KEY_NAME
    if cert.exists() and key.exists() and not args.force:
        print(f"Kept the existing certificate {cert} (--force replaces it)")
        print(f"SHA-256 fingerprint: {certificate_fingerprint(cert)}")
        return 0
    try:
        made = make_certificate(args.dir, args.name, days=args.days)
    except CertificateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Certificate {made.cert} and key {made.key} for {', '.join(made.names)}")
    print(f"SHA-256 fingerprint: {made.fingerprint}")
    print(f"Serve with: smartmat dashboard --tls-cert {made.cert} --tls-key {made.key}")
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
    if args.tls_cert or args.tls_key:
        config.update(TLS_CERT=args.tls_cert, TLS_KEY=args.tls_key, TLS_PORT=args.tls_port)
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
    if server.fingerprint:
        print(f"smartmat dashboard for table {args.table}: referee {server.url}", flush=True)
        print(f"  spectators {server.spectator_url}", flush=True)
        print(f"  TLS certificate SHA-256 fingerprint {server.fingerprint}", flush=True)
    else:
        print(f"smartmat dashboard for table {args.table}: {server.url}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    server.stop()
    return 0
